/**
 * Tab completion of names (issue 23 item 7): after `--team` and in a team positional (`watch`,
 * `log`, `dashboard`, `team show`/`delete`) the store's team names; after `--as`/`--from` and in a
 * member positional (`team send`/`ask <to>`, `team stop`/`resume`/`endorse`, `inbox`, `agent`)
 * the team's member names. The store is the one the typed line selects (`--store`, `--root`,
 * `--claude`); a store that cannot be read completes no names, never an error on the terminal.
 */
import { optionValue } from '../core/text/hint-scope.js';
import { openStore, teamTarget, type GlobalArgs } from './globals.js';

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
 * cannot be read (it is closed by the CLI's `closeStores`).
 */
export async function completeNames(words: readonly string[]): Promise<NameCompletion> {
  const kind = nameKind(words);
  const valueOnly = ['--team', ...MEMBER_OPTIONS].includes(words.at(-2) ?? '');
  if (kind === undefined) return { names: [], valueOnly };
  const typed = words.at(-1) ?? '';
  const args = selectionOf(words);
  try {
    const names = kind === 'team' ? await teamNames(args) : await memberNames(args);
    return { names: names.filter((n) => n.startsWith(typed) && !/\s/.test(n)).sort(), valueOnly };
  } catch {
    return { names: [], valueOnly }; // no store, no team, several teams without --team: nothing to offer, nothing to print
  }
}

/** The store- and team-selecting options of a typed line. */
function selectionOf(words: readonly string[]): GlobalArgs {
  const before = words.slice(0, -1);
  const claude = before.includes('--claude') || before.includes('--claude=true');
  return { store: optionValue(before, 'store'), root: optionValue(before, 'root'), team: optionValue(before, 'team'), ...(claude ? { claude } : {}) };
}

async function teamNames(args: GlobalArgs): Promise<string[]> {
  const { listTeams } = await import('../core/teams/team-lifecycle.js');
  return listTeams({ root: await openStore(args) });
}

async function memberNames(args: GlobalArgs): Promise<string[]> {
  const { configOf } = await import('../core/teams/known-config.js');
  return (await configOf(await teamTarget(args))).members.map((m) => m.name);
}
