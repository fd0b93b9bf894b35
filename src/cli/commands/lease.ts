/**
 * `mailroom lease acquire|release|list|guard|hook`: advisory path leases (src/core/leases/,
 * docs/leases.md). `guard` is a git pre-commit check; `hook` is a Claude Code PreToolUse hook
 * command (Edit, Write, MultiEdit): both refuse an edit of paths another live member holds.
 */
import { resolve } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { z } from 'zod';
import { MailroomError, hookExitCodeFor } from '../../errors.js';
import { durationOption, parseDuration } from '../durations.js';
import { emit, reportError, writeStderr } from '../output.js';
import { teamTarget, type GlobalArgs } from '../globals.js';
import { hookStoreWords } from '../hook-command.js';
import { shellQuote } from '../../core/text/shell-quote.js';
import type { PathLease } from '../../protocol/path-lease.js';
import { reasonText } from '../../domain/path-leases.js';
import { isoOf } from '../../domain/shown-value.js';

interface LeaseArgs extends GlobalArgs {
  paths?: string[];
  as?: string;
  ttl?: string;
  shared?: boolean;
  reason?: string;
  force?: boolean;
  repo?: string;
  id?: string;
  all?: boolean;
  install?: boolean;
  settings?: string;
}

/**
 * The shell command that runs this mailroom with the store and team of `a`, then `rest` (what an
 * installed hook runs). The store is the one resolved now, environment included (src/cli/hook-command.ts).
 * @throws INVALID_ARGUMENT when `--store` carries a password (see {@link hookStoreWords})
 */
async function selfCommand(a: LeaseArgs, rest: readonly string[]): Promise<string> {
  const store = hookStoreWords(a);
  const { team } = await teamTarget(a);
  const words = (ws: readonly string[]) => ws.map(shellQuote);
  return [...words([process.execPath, process.argv[1] ?? 'mailroom']), ...store, ...words(['--team', team, ...rest, ...(a.as ? ['--as', a.as] : [])])].join(' ');
}

const line = (l: PathLease) => `${l.id}  ${l.holder}  ${l.shared ? 'shared   ' : 'exclusive'}  ${l.paths.join(' ')}  until ${isoOf(l.expiresAt)}${l.reason ? `  (${reasonText(l.reason)})` : ''}  [${l.repo}]`;

const acquire: CommandModule<GlobalArgs, LeaseArgs> = {
  command: 'acquire <paths..>',
  describe: 'Lease paths or globs (all or nothing); LEASE_HELD names any holder in the way',
  builder: (y) =>
    y
      .positional('paths', { type: 'string', array: true, demandOption: true, describe: 'Files, directories or globs (src/**), relative to the current directory' })
      .option('as', { type: 'string', describe: 'Holder (default: the lead)' })
      .option('ttl', durationOption('How long the lease lives when its holder has no beating runtime (default 30m)', 1000))
      .option('shared', { type: 'boolean', describe: 'A shared lease: conflicts only with exclusive ones' })
      .option('reason', { type: 'string', describe: 'Why, shown to anyone it stops (one line, at most 500 characters)' })
      .option('force', { type: 'boolean', describe: 'The lead takes over conflicting leases (journalled)' })
      .option('repo', { type: 'string', describe: 'Repository root the paths are relative to (default: the member\'s cwd)' })
      .example('$0 lease acquire src/store/** --as alice --reason "store refactor"', 'alice leases the store folder for 30 minutes') as Argv<LeaseArgs>,
  handler: async (a) => {
    const { acquireLease } = await import('../../core/leases/path-leases.js');
    const lease = await acquireLease({ ...(await teamTarget(a)), as: a.as, paths: a.paths ?? [], ttlMs: a.ttl === undefined ? undefined : parseDuration(a.ttl, '--ttl', 1000), shared: a.shared, reason: a.reason, force: a.force, repo: a.repo });
    emit(a.json, lease, () => `leased ${line(lease)}`);
  },
};

const release: CommandModule<GlobalArgs, LeaseArgs> = {
  command: 'release [id]',
  describe: 'Release a lease (its id, or the exact path pattern the member leased) or all of a member\'s (--all)',
  builder: (y) =>
    y
      .positional('id', { type: 'string', describe: 'The lease id (pl-N), as `lease list` prints it, or the path pattern the member leased (src/store/**)' })
      .option('all', { type: 'boolean', describe: 'Every lease the member holds' })
      .option('as', { type: 'string', describe: 'Holder (default: the lead)' })
      .example([
        ['$0 lease release pl-1 --as alice', 'alice releases lease pl-1 (its id from `lease list`)'],
        ["$0 lease release 'src/store/**' --as alice", 'alice releases her lease on that pattern (several such leases: give the id)'],
        ['$0 lease release --all --as alice', 'alice releases every lease she holds'],
      ]) as Argv<LeaseArgs>,
  handler: async (a) => {
    if ((a.id === undefined) === (a.all !== true)) throw new MailroomError('USAGE', 'Name one lease id, or pass --all (not both). List them with `mailroom lease list`.');
    const { releaseLeases } = await import('../../core/leases/path-leases.js');
    const gone = await releaseLeases({ ...(await teamTarget(a)), as: a.as, ids: a.id ? [a.id] : undefined, all: a.all });
    emit(a.json, gone, () => (gone.length === 0 ? 'No lease to release.' : gone.map((l) => `released ${line(l)}`)));
  },
};

const list: CommandModule<GlobalArgs, GlobalArgs> = {
  command: 'list',
  describe: 'The live leases of the team (ended ones are dropped and journalled)',
  builder: (y) => y.example('$0 lease list', 'Who holds which paths, and until when') as Argv<GlobalArgs>,
  handler: async (a) => {
    const { listLeases } = await import('../../core/leases/path-leases.js');
    const leases = await listLeases(await teamTarget(a));
    emit(a.json, leases, () => (leases.length === 0 ? 'No leases.' : leases.map(line)));
  },
};

async function refuseHeld(a: LeaseArgs, files: readonly string[]): Promise<void> {
  const { heldByOthers, heldError } = await import('../../core/leases/path-leases.js');
  const held = await heldByOthers({ ...(await teamTarget(a)), as: a.as ?? process.env.MAILROOM_MEMBER, files });
  if (held.length > 0) throw heldError(held);
}

const guard: CommandModule<GlobalArgs, LeaseArgs> = {
  command: 'guard',
  describe: 'git pre-commit check: refuse when staged files are leased exclusively by another live member',
  builder: (y) =>
    y
      .option('as', { type: 'string', describe: 'Who commits (default $MAILROOM_MEMBER); their own leases pass' })
      .option('install', { type: 'boolean', describe: 'Install this check as the repository\'s git pre-commit hook (idempotent; never replaces a hook mailroom did not write)' })
      .example('$0 lease guard --as bob', 'As .git/hooks/pre-commit: `exec mailroom --team demo lease guard --as bob`')
      .example('$0 --team demo lease guard --install', 'Writes that hook into the current repository, naming the store this command resolves') as Argv<LeaseArgs>,
  handler: async (a) => {
    if (a.install) {
      const { installGitGuard } = await import('../lease-install.js');
      const hookPath = resolve((await git(['rev-parse', '--git-path', 'hooks/pre-commit'])).trim());
      const done = await installGitGuard(hookPath, await selfCommand(a, ['lease', 'guard']));
      return emit(a.json, { path: hookPath, outcome: done }, () => `lease guard: pre-commit hook ${done} (${hookPath}).`);
    }
    // The staged files, as git names them (relative to the work tree's top). --no-renames: a rename
    // is a deletion of the old name plus an addition of the new, so both names are checked.
    const top = (await git(['rev-parse', '--show-toplevel'])).trim();
    const files = (await git(['diff', '--cached', '--name-only', '--no-renames', '-z'])).split('\0').filter((f) => f !== '').map((f) => `${top}/${f}`);
    await refuseHeld(a, files);
    emit(a.json, { ok: true, checked: files.length }, () => `lease guard: ${files.length} file${files.length === 1 ? '' : 's'} free to commit.`);
  },
};

/**
 * Runs git in the working directory and returns its stdout. @throws USAGE when git fails (most
 * often: the directory is not inside a git repository), naming the directory and git's reason.
 */
async function git(args: string[]): Promise<string> {
  const { execFileSync } = await import('node:child_process');
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const said = String((err as { stderr?: unknown }).stderr ?? (err as Error).message).trim().split('\n')[0];
    throw new MailroomError('USAGE', `lease guard works inside a git repository, and git said: ${said} (in ${process.cwd()}). Run it from the repository (it is meant as its pre-commit hook: \`mailroom lease guard --install\`).`, { details: { cwd: process.cwd(), git: args.join(' ') } });
  }
}

/** The part of Claude Code's PreToolUse hook input the hook reads (the edited file's path: tool_input.file_path of Edit, Write, MultiEdit, notebook_path of NotebookEdit); other fields are ignored. */
const hookInputSchema = z.object({
  tool_name: z.string().optional(),
  tool_input: z.object({ file_path: z.string().optional(), notebook_path: z.string().optional() }).optional(),
  cwd: z.string().optional(),
});
type HookInput = z.infer<typeof hookInputSchema>;

/** Parses the hook's stdin (empty: `{}`). @throws INVALID_ARGUMENT naming what is wrong */
function parseHookInput(text: string): HookInput {
  const fix = 'it reads Claude Code\'s PreToolUse JSON on stdin: {"tool_name": "Edit", "tool_input": {"file_path": "…"}, "cwd": "…"}.';
  let raw: unknown;
  try {
    raw = JSON.parse(text.trim() === '' ? '{}' : text);
  } catch {
    throw new MailroomError('INVALID_ARGUMENT', `lease hook got input that is not JSON: ${fix}`);
  }
  const got = hookInputSchema.safeParse(raw);
  if (got.success) return got.data;
  const where = got.error.issues.map((i) => `${i.path.join('.') || 'the input'}: ${i.message}`).join('; ');
  throw new MailroomError('INVALID_ARGUMENT', `lease hook got malformed input (${where}): ${fix}`);
}

/** The hook proper: returns when the edit may go on. @throws LEASE_HELD for a held path, INVALID_ARGUMENT for malformed input */
async function checkHook(a: LeaseArgs): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  const input = parseHookInput(Buffer.concat(chunks).toString('utf8'));
  const { EDIT_TOOLS } = await import('../lease-install.js');
  const tool = input.tool_name ?? '';
  const field = Object.hasOwn(EDIT_TOOLS, tool) ? EDIT_TOOLS[tool] : undefined;
  const path = field ? input.tool_input?.[field] : undefined;
  if (!path) return;
  const { heldByOthers, heldError } = await import('../../core/leases/path-leases.js');
  const held = await heldByOthers({ ...(await teamTarget(a)), as: a.as ?? process.env.MAILROOM_MEMBER, files: [path], cwd: input.cwd });
  if (held.length > 0) throw heldError(held);
}

const hook: CommandModule<GlobalArgs, LeaseArgs> = {
  command: 'hook',
  describe: 'Claude Code PreToolUse hook: exit 2 (blocking, holder named on stderr) for an Edit/Write/MultiEdit/NotebookEdit of a path another member holds',
  builder: (y) =>
    y
      .option('as', { type: 'string', describe: 'The Claude Code teammate this hook runs for (default $MAILROOM_MEMBER)' })
      .option('install', { type: 'boolean', describe: 'Add this hook to Claude Code\'s project settings (idempotent; a settings file that does not parse is left alone)' })
      .option('settings', { type: 'string', describe: 'With --install: the settings file (default .claude/settings.json in the current directory)' })
      .example([
        ['$0 --team demo lease hook --install', 'Add the hook to this project\'s .claude/settings.json (each teammate sets MAILROOM_MEMBER)'],
        ['echo \'{"tool_name":"Edit","tool_input":{"file_path":"src/a.ts"}}\' | $0 lease hook --as bob', 'Claude Code runs this before bob edits src/a.ts: exit 2 if another member holds it'],
      ]) as Argv<LeaseArgs>,
  handler: async (a) => {
    if (a.install) {
      const { installClaudeHook } = await import('../lease-install.js');
      const path = resolve(a.settings ?? '.claude/settings.json');
      const done = await installClaudeHook(path, await selfCommand(a, ['lease', 'hook']));
      return emit(a.json, { path, outcome: done }, () => `lease hook: PreToolUse hook ${done} (${path}).`);
    }
    try {
      await checkHook(a);
    } catch (err) {
      // Claude Code's hook protocol, not the CLI's exit codes: exit 2 blocks the tool call (a held
      // path, stderr shown to the model); any other error is a non-blocking 1 (hookExitCodeFor).
      reportError(err, a.json === true);
      await new Promise<void>((done) => writeStderr('', () => done()));
      process.exit(hookExitCodeFor(err));
    }
  },
};

/** The `lease` command group. */
export const leaseCommand: CommandModule<GlobalArgs, GlobalArgs> = {
  command: 'lease <command>',
  describe: 'Advisory path leases: who is editing which files (acquire, release, list, guard, hook)',
  builder: (y) => y.command([acquire, release, list, guard, hook] as unknown as CommandModule<GlobalArgs, GlobalArgs>[]).demandCommand(1, 'Name a lease command (see --help).') as Argv<GlobalArgs>,
  handler: () => undefined,
};

/** Subcommand names, for did-you-mean. */
export const LEASE_COMMANDS = ['acquire', 'release', 'list', 'guard', 'hook'];
