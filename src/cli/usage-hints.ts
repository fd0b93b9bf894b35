/**
 * "Did you mean …?" for argument errors: an unknown command (`task get` → `task show`, `sned` →
 * `team send`), an unknown option (`--blocked` → `--blocked-by`, `--from` where the verb takes
 * `--as`), an argument a command does not take. Every message names the word as typed. Pure
 * functions over the raw argv and what yargs reports; run-cli.ts turns them into USAGE errors.
 */
import { closestMatch } from '../domain/suggest.js';
import { optionPart } from './value-args.js';
import { flagReadAsText } from './read-as-option.js';
import { meantElsewhere } from './meant-elsewhere.js';

/** Top-level command names → their subcommand names (empty for a command without any). */
export type CommandTree = Readonly<Record<string, readonly string[]>>;

/** Words people use for a command, → the command names they may mean (first one that exists wins). */
const COMMAND_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  get: ['show'], view: ['show'], info: ['show'], cat: ['show'], describe: ['show'],
  ls: ['list'],
  rm: ['delete'], remove: ['delete'], del: ['delete'],
  new: ['create', 'add'], create: ['add'], add: ['spawn'], hire: ['spawn'], invite: ['spawn'], join: ['spawn'],
  kill: ['stop'], shutdown: ['stop'], quit: ['stop'],
  message: ['send'], msg: ['send'], tell: ['send'], say: ['send'], mail: ['send', 'inbox'],
  edit: ['update'], set: ['update'], change: ['update'], modify: ['update'],
  take: ['claim'], grab: ['claim'],
  messages: ['inbox'], read: ['inbox'],
  history: ['log'], journal: ['log'], events: ['log'],
  monitor: ['watch'], tui: ['watch'], ui: ['watch'], top: ['watch'],
  check: ['doctor'], fsck: ['doctor'], health: ['doctor'],
  serve: ['mcp'], server: ['mcp'],
};

/**
 * Synonyms that mean something else inside one group, overriding {@link COMMAND_SYNONYMS} there:
 * in `team`, removing someone is `team stop` (the member leaves the roster), never `team delete`,
 * which deletes the whole team.
 */
const GROUP_SYNONYMS: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  team: { rm: ['stop'], remove: ['stop'], kick: ['stop'], fire: ['stop'], dismiss: ['stop'], leave: ['stop'] },
};

/** The command synonyms inside `group` (its own first, then the general ones). */
function synonymsIn(group: string): Readonly<Record<string, readonly string[]>> {
  return Object.hasOwn(GROUP_SYNONYMS, group) ? { ...COMMAND_SYNONYMS, ...GROUP_SYNONYMS[group] } : COMMAND_SYNONYMS;
}

/** Option names people use → the option they may mean on a command that has it. */
const OPTION_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  from: ['as'], sender: ['as'], member: ['as'], user: ['as'], by: ['as'], agent: ['as'],
  'depends-on': ['blocked-by'], after: ['blocked-by'], blockers: ['blocked-by'], deps: ['blocked-by'],
  'timeout-ms': ['timeout'], wait: ['timeout'],
  desc: ['description'], title: ['subject'], assignee: ['owner'], assign: ['owner'],
};

/** Options that take a value wherever they appear before the command (the global ones). */
const VALUE_OPTIONS = new Set(['--root', '--team', '--store', '--store-timeout']);

/** The command words of `argv` (up to two: a command and a subcommand), options and their values skipped. */
export function commandWords(argv: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const arg = argv[i] as string;
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      if (VALUE_OPTIONS.has(arg)) i++;
      continue;
    }
    words.push(arg);
  }
  return words;
}

/**
 * True when `-v` comes before the command words of `argv` (`mailroom -v team list`): there it can
 * only be meant as the version, which takes no command.
 */
export function versionBeforeCommand(argv: readonly string[]): boolean {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '-v') return commandWords(argv.slice(i + 1)).length > 0;
    if (arg === '--' || !arg.startsWith('-')) return false;
    if (VALUE_OPTIONS.has(arg)) i++;
  }
  return false;
}

/** The synonyms listed for `word` (own entries only: `constructor` is on every object). */
function synonymsOf(synonyms: Readonly<Record<string, readonly string[]>>, word: string): readonly string[] | undefined {
  const key = word.toLowerCase();
  return Object.hasOwn(synonyms, key) ? synonyms[key] : undefined;
}

function resolve(word: string, names: readonly string[], synonyms: Readonly<Record<string, readonly string[]>>): string | undefined {
  const meant = synonymsOf(synonyms, word)?.find((name) => names.includes(name));
  return meant ?? closestMatch(word, names);
}

/** An unknown command in `argv`: the words as typed and, when one is near, the command meant. */
export interface UnknownCommand {
  /** As typed, e.g. `task get`. */
  typed: string;
  /** The whole command meant, e.g. `task show` (or `--help`). */
  suggestion?: string;
}

/** The unknown command `argv` names, if any (its first word, or the subcommand of a group). */
export function findUnknownCommand(argv: readonly string[], tree: CommandTree): UnknownCommand | undefined {
  const [top, sub] = commandWords(argv);
  if (top === undefined) return undefined;
  if (top === 'help') return { typed: top, suggestion: '--help' };
  const subs = tree[top];
  if (subs === undefined) {
    // A subcommand's exact name beats a near top-level one (`send` → `team send`, not `deny`).
    const exact = Object.entries(tree).find(([, names]) => names.includes(top));
    if (exact !== undefined) return { typed: top, suggestion: `${exact[0]} ${top}` };
    const direct = resolve(top, Object.keys(tree), COMMAND_SYNONYMS);
    if (direct !== undefined) return { typed: top, suggestion: direct };
    // A subcommand typed without its group: `mailroom send …` → `team send`.
    for (const [group, names] of Object.entries(tree)) {
      const meant = names.includes(top) ? top : synonymsOf(synonymsIn(group), top)?.find((n) => names.includes(n));
      if (meant !== undefined) return { typed: top, suggestion: `${group} ${meant}` };
    }
    const paths = Object.entries(tree).flatMap(([group, names]) => names.map((n) => `${group} ${n}`));
    const typo = closestMatch(top, paths.map((p) => p.split(' ')[1] as string));
    const path = typo === undefined ? undefined : paths.find((p) => p.endsWith(` ${typo}`));
    return path === undefined ? { typed: top } : { typed: top, suggestion: path };
  }
  if (subs.length === 0 || sub === undefined || subs.includes(sub)) return undefined;
  if (sub === 'help') return { typed: `${top} ${sub}`, suggestion: `${top} --help` };
  const meant = resolve(sub, subs, synonymsIn(top));
  return meant === undefined ? { typed: `${top} ${sub}` } : { typed: `${top} ${sub}`, suggestion: `${top} ${meant}` };
}

/**
 * yargs' "Not enough non-option arguments" in the user's words: a command group typed without its
 * command (`mailroom team`) lists the group's commands; a command without its argument names the
 * command and its --help. Undefined for any other message.
 */
export function missingArgumentMessage(message: string, argv: readonly string[], tree: CommandTree): string | undefined {
  if (!/^Not enough non-option arguments/.test(message)) return undefined;
  const [top, sub] = commandWords(argv);
  if (top === undefined) return undefined;
  const subs = tree[top] ?? [];
  if (sub === undefined && subs.length > 0) return `\`mailroom ${top}\` needs a command: ${subs.join(', ')}. Run mailroom ${top} --help for what each does.`;
  const command = sub !== undefined && subs.includes(sub) ? `${top} ${sub}` : top;
  return `\`mailroom ${command}\` is missing an argument. Run mailroom ${command} --help for its arguments and examples.`;
}

/** What yargs knows of the running command: its usage line (`show <id>`) and its options' descriptions. */
export interface CommandUsage {
  /** The command's own part of the usage line, e.g. `show <id>` or `claim [id]`. */
  line?: string | undefined;
  /** Option and positional names → their `describe` text. */
  descriptions: Readonly<Record<string, string>>;
}

/**
 * yargs' "Missing required argument(s): as" and "Not enough non-option arguments: got 1, need at
 * least 2" as the words missing: `--as` for an option, `<id>` for a positional of the usage line.
 * Undefined for another message, or when the names cannot be told.
 */
export function missingNames(message: string, usage: CommandUsage): string[] | undefined {
  const line = usage.line ?? '';
  const positionals = [...line.matchAll(/[<[]([^\]>.]+)(?:\.\.)?[\]>]/g)].map((m) => m[1] as string);
  const required = [...line.matchAll(/<([^>.]+)(?:\.\.)?>/g)].map((m) => m[1] as string);
  const options = /^Missing required arguments?: (.*)$/.exec(message)?.[1];
  if (options !== undefined) return options.split(', ').filter((n) => n !== '').map((n) => (positionals.includes(n) ? `<${n}>` : `--${n}`));
  const got = /^Not enough non-option arguments: got (\d+)/.exec(message)?.[1];
  if (got === undefined) return undefined;
  const missing = required.slice(Number(got)).map((n) => `<${n}>`);
  return missing.length > 0 ? missing : undefined;
}

/**
 * ``\`mailroom task claim\` needs --as (Claimant member name).`` (`needs`) for {@link missingNames},
 * each with its description, and the pointer to the command's --help (`help`); undefined when
 * yargs' message names nothing missing.
 */
export function missingNamesMessage(message: string, argv: readonly string[], tree: CommandTree, usage: CommandUsage): { needs: string; help: string; missing: string[] } | undefined {
  const path = commandPath(argv, tree);
  // A group without its command (`mailroom team`): missingArgumentMessage lists the group's commands.
  if (path.length === 0 || (path.length === 1 && (tree[path[0] as string]?.length ?? 0) > 0)) return undefined;
  const missing = missingNames(message, usage);
  const command = path.join(' ');
  if (missing === undefined) return undefined;
  const described = missing.map((word) => {
    const describe = usage.descriptions[word.replace(/^--|^<|>$/g, '')];
    return describe === undefined || describe === '' || describe.startsWith('__yargsString__') ? word : `${word} (${describe})`;
  });
  const list = described.length === 1 ? described[0] : `${described.slice(0, -1).join(', ')} and ${described.at(-1) as string}`;
  return { needs: `\`mailroom ${command}\` needs ${list}.`, help: `Run mailroom ${command} --help for its arguments and examples.`, missing };
}

/** The message for an unknown command, e.g. ``Unknown command "task get". Did you mean `mailroom task show`?`` */
export function unknownCommandMessage(unknown: UnknownCommand, tree: CommandTree): string {
  const [top] = unknown.typed.split(' ');
  const inGroup = unknown.typed.includes(' ') && top !== undefined ? tree[top] : undefined;
  const known = inGroup ? `\`${top}\` commands: ${inGroup.join(', ')}` : `Commands: ${Object.keys(tree).join(', ')}`;
  const meant = unknown.suggestion ? ` Did you mean \`mailroom ${unknown.suggestion}\`?` : '';
  return `Unknown command "${unknown.typed}".${meant} ${known}.`;
}

/** The words yargs' strict mode refused: `Unknown argument: x` / `Unknown arguments: x, y`. */
export function refusedWords(yargsMessage: string): string[] | undefined {
  const match = /^Unknown arguments?: (.*)$/.exec(yargsMessage);
  return match?.[1]?.split(', ').filter((w) => w !== '');
}

/**
 * The message for words the command does not take: an unknown option (named as typed, with the
 * nearest declared option), or an extra argument. `declared` are the command's option names.
 */
export function refusedWordsMessage(words: readonly string[], argv: readonly string[], declared: readonly string[], tree?: CommandTree): string {
  const command = (tree ? commandPath(argv, tree) : commandWords(argv)).join(' ');
  const where = command ? `mailroom ${command}` : 'mailroom';
  const parts: string[] = [];
  const seen = new Set<string>();
  for (const word of words) {
    const typed = typedOption(argv, word);
    // yargs names an unknown --two-words twice: as typed and camelCased.
    const key = typed?.replace(/=.*$/, '') ?? word;
    if (seen.has(key)) continue;
    seen.add(key);
    if (typed === undefined) {
      // `--clade team list`: the unknown option took `team` as its value, so yargs refuses `list`, a command word.
      if (afterUnknownOption(word, words, argv) && commandPath(argv, tree ?? {}).includes(word)) continue;
      const texted = command.endsWith('send') || command.endsWith('broadcast');
      // A word with spaces was quoted already: it is a second text, not a piece of one.
      const hint = !texted ? '' : /\s/.test(word) ? ' (the message text was given already: a send takes one)' : ' (quote a message text that has spaces)';
      parts.push(`${where}: unexpected argument "${word}"${hint}.`);
      continue;
    }
    const name = typed.replace(/^-+/, '').replace(/=.*$/, '');
    const shown = typed.replace(/=.*$/, '');
    const elsewhere = typed.startsWith('--') ? meantElsewhere(name, command) : undefined;
    if (elsewhere !== undefined) {
      parts.push(`${where}: unknown option ${shown}${elsewhere === '' ? '.' : `: ${elsewhere}`}`);
      continue;
    }
    const meant = resolve(name.replace(/^no-/, ''), declared, OPTION_SYNONYMS);
    // A single-dash word no option is near (`-x`) is more likely a text than a mistyped option.
    const hint = meant ? ` Did you mean --${meant}?` : typed.startsWith('--') ? '' : ` ${dashTextHint(typed)}`;
    parts.push(`${where}: unknown option ${shown}.${hint}`);
  }
  return parts.join(' ');
}

/** True when `word` directly follows, in `argv`, a word that is one of the refused options (`--clade team list`: `team`). */
function afterUnknownOption(word: string, words: readonly string[], argv: readonly string[]): boolean {
  const options = words.map((w) => typedOption(argv, w)).filter((t): t is string => t !== undefined && !t.includes('='));
  return options.some((option) => {
    const at = argv.indexOf(option);
    return at >= 0 && argv.slice(at + 1).includes(word);
  });
}

/**
 * The command words of `argv` that name a command in `tree`: `log` for `log --follow --actr x`
 * (the `x` is the value of an unknown option, not a subcommand), `inbox` for `inbox dave`.
 */
export function commandPath(argv: readonly string[], tree: CommandTree): string[] {
  const [top, sub] = commandWords(argv);
  if (top === undefined) return [];
  return sub !== undefined && tree[top]?.includes(sub) ? [top, sub] : [top];
}

/**
 * The long options of `argv` (before any `--`) that the running command does not declare, by name
 * as yargs would report them (`ass` for `--ass dave`, `no-x` counted as `x`). yargs checks
 * required options and positionals before unknown ones, so `task claim 3 --ass dave` failed with
 * "Missing required argument: as", never naming the misspelt --ass: run-cli.ts names these first.
 * `declared` holds the command's option names and their aliases.
 */
export function undeclaredOptions(argv: readonly string[], declared: readonly string[]): string[] {
  const names: string[] = [];
  for (const arg of optionPart(argv)) {
    const m = /^--([^=\s]+)(?:=|$)/.exec(arg);
    if (!m || /\s/.test(arg.split('=', 1)[0] as string)) continue; // a text with spaces, not an option
    const name = m[1] as string;
    if (declared.includes(name) || declared.includes(name.replace(/^no-/, '')) || names.includes(name)) continue;
    names.push(name);
  }
  return names;
}

/**
 * How to write a text (a message, a task title) that begins with "-", which the command line reads
 * as an option: after `--` (docs/cli.md, "A message text may begin with a dash").
 */
export function dashTextHint(word: string): string {
  return `A text that begins with "-" goes after --, as \`-- ${word}\` at the end of the line.`;
}

/**
 * yargs' "Not enough non-option arguments" when a word before `--` that begins with "-" may have
 * been meant as the missing text (`task add "-title"`, or a flag without a value such as
 * `task add "--json"`: ./read-as-option.ts): that word, else undefined.
 */
export function dashWordForMissingText(message: string, argv: readonly string[], declared: readonly string[]): string | undefined {
  if (!/^Not enough non-option arguments/.test(message)) return undefined;
  return optionPart(argv).find((a) => /^-[^-\s]/.test(a) || (/^--[^=\s]/.test(a) && !declared.includes(a.slice(2).replace(/=.*$/, '').replace(/^no-/, '')))) ?? flagReadAsText(argv);
}

/** How `word` (as yargs names it) was typed as an option in `argv` (`--word`, `-w`), if it was: before `--` only. */
function typedOption(argv: readonly string[], word: string): string | undefined {
  const kebab = word.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  return optionPart(argv).find((arg) => {
    if (!arg.startsWith('-')) return false;
    const name = arg.replace(/^-+/, '').replace(/=.*$/, '');
    return name === word || name === kebab || name === `no-${word}` || (arg.length === 2 && arg[1] === word);
  });
}

/** The option names a command declares, as typed on a command line (yargs' camelCase copies left out). */
export function declaredOptionNames(keys: readonly string[]): string[] {
  const names = new Set(keys.filter((k) => k !== '_' && k !== '$0' && k.length > 1));
  for (const k of [...names]) if (/[A-Z]/.test(k) && names.has(k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`))) names.delete(k);
  return [...names];
}
