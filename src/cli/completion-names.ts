/**
 * Tab completion of names (issue 23 item 7): after `--team` and in a team positional (`watch`,
 * `log`, `dashboard`, `team show`/`delete`) the store's team names; after `--as`/`--from` and in a
 * member positional (`team send`/`ask <to>`, `team stop`/`resume`/`endorse`, `inbox`, `agent`)
 * the team's member names; in a task id positional (`task show`/`update`/`delete`: every task;
 * `task claim`: those not completed) the team's task ids; after `--status` of `task list` and
 * `task update` the task statuses (no store read). The store is the one the typed line selects
 * (`--store`, `--root`, `--claude`); a store that cannot be read completes no names, never an
 * error on the terminal. A completion request stays light: what it reads is imported when needed.
 */
import { optionValue } from '../core/text/hint-scope.js';
import { checkSelectionFlags } from './option-checks.js';
import type { GlobalArgs } from './globals.js';
import { openStores, resolveSelection } from '../store/open.js';
import type { Stores } from '../store/selection.js';
import { TASK_STATUSES } from '../protocol/task.js';

/** Deadline of a TAB press's store calls (ms): a stalled store offers no names rather than a frozen prompt. */
export const COMPLETION_STORE_TIMEOUT_MS = 1_000;

/** What a word being completed names: a team, a member, a task id, a task status (`status-or-deleted`: `task update` also takes `deleted`). */
export type NameKind = 'team' | 'member' | 'task' | 'open-task' | 'status' | 'status-or-deleted';

/** Positionals that name a team, by the command words before them. */
const TEAM_POSITIONALS: readonly string[] = ['watch', 'log', 'dashboard', 'team show', 'team delete'];
/** Positionals that name a member, by the command words before them. */
const MEMBER_POSITIONALS: readonly string[] = ['team send', 'team ask', 'team stop', 'team resume', 'team endorse', 'inbox', 'agent'];
/** Positionals that name a task, by the command words before them (`task claim`: the tasks not completed). */
const TASK_POSITIONALS: readonly string[] = ['task show', 'task update', 'task delete'];
const OPEN_TASK_POSITIONALS: readonly string[] = ['task claim'];
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
      // `--status` takes a value on `task` commands (on `inbox` it is a flag).
      if (VALUE_OPTIONS.includes(word) || (word === '--status' && positionals[0] === 'task')) i++;
      continue;
    }
    positionals.push(word);
  }
  const command = positionals.slice(0, 2).join(' ');
  if (previous === '--status' && command === 'task list') return 'status';
  if (previous === '--status' && command === 'task update') return 'status-or-deleted';
  // The word completes the first positional after the command words: `team send <to>`, not its text.
  const kinds = [['team', TEAM_POSITIONALS], ['member', MEMBER_POSITIONALS], ['task', TASK_POSITIONALS], ['open-task', OPEN_TASK_POSITIONALS]] as const;
  for (const [kind, commands] of kinds) {
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
  const valueOnly = ['--team', ...MEMBER_OPTIONS].includes(line.at(-2) ?? '') || kind === 'status' || kind === 'status-or-deleted';
  if (kind === undefined) return { names: [], valueOnly };
  const typed = line.at(-1) ?? '';
  if (kind === 'status' || kind === 'status-or-deleted') {
    // Fixed words: no store is opened.
    return { names: [...TASK_STATUSES, ...(kind === 'status-or-deleted' ? ['deleted'] : [])].filter((n) => n.startsWith(typed)), valueOnly };
  }
  const args = selectionOf(line);
  let stores: Stores | undefined;
  try {
    checkSelectionFlags(args);
    const quiet = () => undefined;
    stores = await openStores(resolveSelection({ store: args.store, root: args.root, claude: args.claude }), { lock: { onWarning: quiet }, onWarning: quiet, allowVolatile: true, storeTimeoutMs: COMPLETION_STORE_TIMEOUT_MS });
    if (kind === 'task' || kind === 'open-task') {
      const ids = await taskIds(stores, args.team, kind === 'open-task');
      return { names: ids.filter((id) => id.startsWith(typed)), valueOnly };
    }
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

/** The team's task ids in id order (internal tasks left out; `open`: only those not completed). */
async function taskIds(root: Stores, team: string | undefined, open: boolean): Promise<string[]> {
  const { resolveTeam } = await import('../core/teams/team-lifecycle.js');
  const resolved = await resolveTeam({ root, team, envTeam: process.env.MAILROOM_TEAM });
  const tasks = await root.team.listTasks(resolved);
  return tasks
    .filter((t) => t.metadata?._internal !== true && (!open || t.status !== 'completed'))
    .map((t) => t.id)
    .sort((a, b) => Number(a) - Number(b));
}
