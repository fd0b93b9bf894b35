/**
 * Global CLI options (`--store`, `--root`, `--claude`, `--team`, `--json`) and how a command turns
 * them into library options. The backend is chosen once, by src/store/open.ts; commands hand the
 * opened stores to core and never look at a path or URL.
 */
import { terminalSafe } from '../core/text/terminal-text.js';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Argv } from 'yargs';
import { openStores, parseStoreTimeout, resolveSelection, type OpenOptions } from '../store/open.js';
import type { Stores } from '../store/selection.js';
import { checkSelectionFlags } from './option-checks.js';
import { writeStderr } from './output.js';
import type { LineOption } from './command-line.js';

/** Parsed global options every command sees. */
export interface GlobalArgs {
  store?: string | undefined;
  root?: string | undefined;
  claude?: boolean | undefined;
  team?: string | undefined;
  json?: boolean | undefined;
  'store-timeout'?: string | undefined;
  'allow-volatile'?: boolean | undefined;
}

/**
 * The global options, declared on the top-level parser ({@link withGlobals}) and read by the hot
 * verbs' direct reader (src/cli/direct-args.ts). src/cli/command-words.cts keeps their names too
 * (it imports nothing); a test holds the two together.
 */
export const GLOBAL_OPTIONS: Readonly<Record<keyof GlobalArgs, LineOption>> = {
  store: { type: 'string', describe: 'Team store URL: redis://host:port[/db], rediss://… (default $MAILROOM_STORE, else the files under --root)' },
  root: { type: 'string', describe: 'Store root (default $MAILROOM_ROOT, else ~/.mailroom); with --store, this machine\'s own directory' },
  claude: { type: 'boolean', describe: "Work on Claude Code's own teams ($CLAUDE_CONFIG_DIR or ~/.claude)" },
  team: { type: 'string', describe: 'Team (default $MAILROOM_TEAM, else the only team)' },
  json: { type: 'boolean', describe: 'Print machine-readable JSON' },
  'store-timeout': { type: 'string', describe: 'Deadline of each call to a network store, e.g. 10s (default $MAILROOM_STORE_TIMEOUT, else 10s): past it, STORE_UNAVAILABLE' },
  'allow-volatile': { type: 'boolean', describe: 'Do not warn about a Redis store that can lose acknowledged mail (default $MAILROOM_ALLOW_VOLATILE)' },
};

/** Declares {@link GLOBAL_OPTIONS} on the top-level parser. */
export function withGlobals<T>(y: Argv<T>): Argv<T & GlobalArgs> {
  let out: Argv<T> = y;
  for (const [name, o] of Object.entries(GLOBAL_OPTIONS)) out = out.option(name, { ...o, global: true }) as Argv<T>;
  return out as Argv<T & GlobalArgs>;
}

/**
 * How often a one-shot command may show the warning about a Redis server that can lose acknowledged
 * mail: once an hour per server on this machine (a user running 20 commands reads it once; doctor
 * reports it every time). Long-lived processes show it at each start: {@link warnAtEveryStart}.
 */
export const VOLATILE_WARNING_PERIOD_MS = 3_600_000;
let volatileWarningPeriodMs: number | undefined = VOLATILE_WARNING_PERIOD_MS;

/** Makes this process show the durability warning whenever it opens a store (for long-lived processes: watch, agent, run, …). */
export function warnAtEveryStart(): void {
  volatileWarningPeriodMs = undefined;
}

const opened = new Set<Stores>();
/** Warnings this CLI run has printed. */
const warned = new Set<string>();
/** Beginnings of warnings this CLI run does not print: the command reports the same thing itself ({@link muteWarnings}). */
const muted: string[] = [];

/**
 * Stops printing store warnings that begin with `prefix` for the rest of this run: for a command
 * that reports the same thing in its own words (`team list` names each unreadable team once, not
 * also as "skipping team directory …").
 */
export function muteWarnings(prefix: string): void {
  muted.push(prefix);
}

/** The beginning of the files store's warning about a team directory it cannot read. */
const SKIPPED_TEAM = 'mailroom: skipping team directory ';

/** Runs `f` with the store warnings that begin with `prefix` muted ({@link muteWarnings}), then unmutes them. */
async function whileMuted<T>(prefix: string, f: () => Promise<T>): Promise<T> {
  muted.push(prefix);
  try {
    return await f();
  } finally {
    muted.splice(muted.lastIndexOf(prefix), 1);
  }
}

/** Opens the stores the global options select; lock warnings go to stderr. Closed by {@link closeStores}. */
export async function openStore(args: GlobalArgs): Promise<Stores> {
  checkSelectionFlags(args);
  const selection = resolveSelection({ store: args.store, root: args.root, claude: args.claude });
  const stores = await openStores(selection, openOptions(args));
  opened.add(stores);
  return stores;
}

/** The open options the global flags give (`--store-timeout`, `--allow-volatile`); lock and durability warnings to stderr (the latter once an hour for a one-shot command). */
function openOptions(args: GlobalArgs): OpenOptions {
  const warn = (m: string) => {
    if (warned.has(m) || muted.some((p) => m.startsWith(p))) return; // one command may read a file several times (doctor lists teams per check): say it once
    warned.add(m);
    writeStderr(`${terminalSafe(m)}\n`); // a warning may name what is on disk (a directory called with escapes)
  };
  const timeout = args['store-timeout'];
  return {
    lock: { onWarning: warn },
    onWarning: warn,
    ...(timeout !== undefined ? { storeTimeoutMs: parseStoreTimeout(String(timeout), '--store-timeout') } : {}),
    ...(args['allow-volatile'] !== undefined ? { allowVolatile: args['allow-volatile'] } : {}),
    ...(volatileWarningPeriodMs !== undefined ? { volatileWarningPeriodMs } : {}),
  };
}

/**
 * Opens the store named by one value of an option such as `store copy --from`: a store URL
 * (`redis://…`, `rediss://…`, `file:///dir`) or a directory (the filesystem store there). Never
 * `$MAILROOM_STORE`: the value alone says which store. Closed by {@link closeStores}.
 * @throws INVALID_ARGUMENT (a URL mailroom cannot open), STORE_UNAVAILABLE
 */
export async function openStoreNamed(value: string, args: GlobalArgs): Promise<Stores> {
  const store = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : pathToFileURL(resolve(value)).href;
  const selection = resolveSelection({ store, root: args.root, claude: args.claude });
  const stores = await openStores(selection, openOptions(args));
  opened.add(stores);
  return stores;
}

/** Closes every store this CLI run opened (network connections). */
export async function closeStores(): Promise<void> {
  for (const s of [...opened]) await s.close().catch(() => undefined);
  opened.clear();
}

/** Stores plus the team to act on (resolved from --team, $MAILROOM_TEAM, or the only team). */
export async function teamTarget(args: GlobalArgs): Promise<{ root: Stores; team: string; surface: 'cli' }> {
  const root = await openStore(args);
  const { resolveTeam } = await import('../core/teams/team-lifecycle.js');
  // Picking "the only team" names each unreadable team in its error: not also as a warning.
  const team = await whileMuted(SKIPPED_TEAM, () => resolveTeam({ root, team: args.team, envTeam: process.env.MAILROOM_TEAM }));
  return { root, team, surface: 'cli' };
}
