/**
 * Tab completion of names (issue 23 item 7): after `--team` and in a team positional (`watch`,
 * `log`, `dashboard`, `team show`/`delete`) the store's team names; after `--as`/`--from` and in a
 * member positional (`team send`/`ask <to>`, `team stop`/`resume`/`endorse`, `inbox`, `agent`)
 * the team's member names. The store is the one the typed line selects (`--store`, `--root`,
 * `--claude`); a store that cannot be read completes no names, never an error on the terminal.
 */
import { optionValue } from '../core/text/hint-scope.js';
import { checkSelectionFlags } from './option-checks.js';
import type { GlobalArgs } from './globals.js';
import { openStores, resolveSelection } from '../store/open.js';
import type { Stores } from '../store/selection.js';

/** Deadline of a TAB press's store calls (ms): a stalled store offers no names rather than a frozen prompt. */
export const COMPLETION_STORE_TIMEOUT_MS = 1_000;

/** What a word being completed names. */
export type NameKind = 'team' | 'member';

/** Positionals that name a team, by the command words before them. */
const TEAM_POSITIONALS: readonly string[] = ['watch', 'log', 'dashboard', 'team show', 'team delete'];
/** Positionals that name a member, by the command words before them. */
const MEMBER_POSITIONALS: readonly string[] = ['team send', 'team ask', 'team stop', 'team resume', 'team endorse', 'inbox', 'agent'];
/** Options whose value is a member name. */
const MEMBER_OPTIONS: readonly string[] = ['--as', '--from'];
/** Global options that take a value (their values are not positionals). */
const VALUE_OPTIONS: readonly string[] = ['--store', '--root', '--team', '--store-timeout', ...MEMBER_OPTIONS];

/**
 * Which kind of name the last word of `words` (the command line after `mailroom`, the word being
 * completed last, possibly empty) is, or undefined when it names neither or is an option.
 */
export function nameKind(words: readonly string[]): NameKind | undefined {
  const current = words.at(-1) ?? '';
  if (current.startsWith('-')) return undefined;
  const previous = words.at(-2);
  if (previous === '--team') return 'team';
  if (previous !== undefined && MEMBER_OPTIONS.includes(previous)) return 'member';
  const positionals: string[] = [];
  const before = words.slice(0, -1);
  for (let i = 0; i < before.length; i++) {
    const word = before[i] as string;
    if (word.startsWith('-')) {
      if (VALUE_OPTIONS.includes(word)) i++;
      continue;
    }
    positionals.push(word);
  }
  // The word completes the first positional after the command words: `team send <to>`, not its text.
  for (const [kind, commands] of [['team', TEAM_POSITIONALS], ['member', MEMBER_POSITIONALS]] as const) {
    if (commands.includes(positionals.join(' '))) return kind;
  }
  return undefined;
}

/** Names to offer for a word; `valueOnly` when the word is an option's value (no commands or options then). */
export interface NameCompletion {
  names: string[];
  valueOnly: boolean;
}

/**
 * The names to offer for the last word of `words` (the line after `mailroom`) in the store that
 * line selects, matching what is typed so far, sorted; none when the word is no name or the store
 * cannot be read. The store is opened quietly (a warning would land in the middle of the typed
 * line), with a {@link COMPLETION_STORE_TIMEOUT_MS} deadline, and closed before returning.
 */
export async function completeNames(shellWords: readonly string[]): Promise<NameCompletion> {
  const { words, lastJoined } = rejoinWords(shellWords);
  // `--team=d` as one word: its value is completed; zsh replaces the whole word, bash only what
  // follows the `=` (bash splits at `=`; its script, src/cli/bash-completion.ts, filters by the
  // word after the `=`, empty right after `--team=`).
  const valueForm = /^(--(?:team|as|from))=(.*)$/s.exec(words.at(-1) ?? '');
  const line = valueForm ? [...words.slice(0, -1), valueForm[1] as string, valueForm[2] as string] : words;
  const prefix = valueForm && !lastJoined ? `${valueForm[1]}=` : '';
  const kind = nameKind(line);
  const valueOnly = ['--team', ...MEMBER_OPTIONS].includes(line.at(-2) ?? '');
  if (kind === undefined) return { names: [], valueOnly };
  const typed = line.at(-1) ?? '';
  const args = selectionOf(line);
  let stores: Stores | undefined;
  try {
    checkSelectionFlags(args);
    const quiet = () => undefined;
    stores = await openStores(resolveSelection({ store: args.store, root: args.root, claude: args.claude }), { lock: { onWarning: quiet }, onWarning: quiet, allowVolatile: true, storeTimeoutMs: COMPLETION_STORE_TIMEOUT_MS });
    const names = kind === 'team' ? await teamNames(stores) : await memberNames(stores, args.team);
    return { names: names.filter((n) => n.startsWith(typed) && !/\s/.test(n)).sort().map((n) => prefix + n), valueOnly };
  } catch {
    return { names: [], valueOnly }; // no store, no team, several teams without --team: nothing to offer, nothing to print
  } finally {
    await stores?.close().catch(() => undefined);
  }
}

/** A typed line's words as typed, from the shell's words, and whether the last one was rejoined. */
export interface RejoinedWords {
  words: string[];
  lastJoined: boolean;
}

/**
 * Undoes bash's split of the line at COMP_WORDBREAKS (`=` and `:` by default; the yargs script
 * passes COMP_WORDS as they are): `--root`, `=`, `/x` is `--root=/x`, and `redis`, `:`, `//h`, `:`,
 * `6379` is `redis://h:6379`. zsh passes words unsplit; a lone `=` or `:` word is taken as a break.
 */
export function rejoinWords(shellWords: readonly string[]): RejoinedWords {
  const words: string[] = [];
  let glue = false;
  let lastJoined = false;
  for (const word of shellWords) {
    const isBreak = (word === '=' || word === ':') && words.length > 0;
    if (isBreak || glue) {
      words[words.length - 1] += word;
      lastJoined = true;
    } else {
      words.push(word);
      lastJoined = false;
    }
    glue = isBreak;
  }
  return { words, lastJoined };
}

/** The store- and team-selecting options of a typed line. */
function selectionOf(words: readonly string[]): GlobalArgs {
  const before = words.slice(0, -1);
  const claude = before.includes('--claude') || before.includes('--claude=true');
  return { store: optionValue(before, 'store'), root: optionValue(before, 'root'), team: optionValue(before, 'team'), ...(claude ? { claude } : {}) };
}

async function teamNames(root: Stores): Promise<string[]> {
  const { listTeams } = await import('../core/teams/team-lifecycle.js');
  return listTeams({ root });
}

async function memberNames(root: Stores, team: string | undefined): Promise<string[]> {
  const [{ resolveTeam }, { configOf }] = await Promise.all([import('../core/teams/team-lifecycle.js'), import('../core/teams/known-config.js')]);
  const resolved = await resolveTeam({ root, team, envTeam: process.env.MAILROOM_TEAM });
  return (await configOf({ root, team: resolved })).members.map((m) => m.name);
}
