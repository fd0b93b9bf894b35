/**
 * Checks of parsed option values that yargs does not make, run before any command handler (so a
 * refused value never leaves a half-done change): an option that takes one value given twice (yargs
 * would pass an array on, which commands do not expect), and a number option that is not a whole
 * number ≥ 0 (yargs passes `abc` on as NaN). Time options (durations.ts) are turned into
 * milliseconds here, or refused with USAGE naming the accepted forms.
 */
import { MailroomError } from '../errors.js';
import { DURATION_OPTIONS, parseDuration } from './durations.js';
import { redactUrl } from '../store/open.js';
import { camelCase } from './command-line.js';

/** The declared options of the running command, as yargs reports them (`getOptions()`). */
export interface DeclaredOptions {
  array: readonly string[];
  number: readonly string[];
  /** Options that take a string value (yargs turns `--no-<name>` into `false` for them too). */
  string?: readonly string[];
  key: Readonly<Record<string, unknown>>;
  alias?: Readonly<Record<string, readonly string[]>>;
}

/**
 * The long options typed without a value (`--name` as the last word before any `--`, or followed by
 * another option): yargs gives such a string option "" and a number option nothing, as if it had
 * not been typed. A word with whitespace is a text (value-args.ts), not an option.
 */
export function bareOptions(part: readonly string[]): Set<string> {
  const bare = new Set<string>();
  part.forEach((arg, i) => {
    if (!/^--[^=\s-][^=\s]*$/.test(arg)) return;
    const next = part[i + 1];
    if (next === undefined || (next.startsWith('-') && next !== '-' && !/\s/.test(next.split('=', 1)[0]!))) bare.add(arg.slice(2));
  });
  return bare;
}

/** The refusal of `option` typed without a value, for the option checks and yargs-parser's own refusal alike. */
export function needsValue(option: string): string {
  return `${option} needs a value. A value that begins with "-" is written ${option}=<value>, or after --`;
}

/**
 * yargs middleware body: checks `argv` and puts durations in it as ms; `bare` ({@link bareOptions})
 * names the options typed without a value. @throws INVALID_ARGUMENT or USAGE naming the option
 */
export function checkOptionValues(argv: Record<string, unknown>, declared: DeclaredOptions, bare: ReadonlySet<string> = new Set()): void {
  for (const name of Object.keys(declared.key)) {
    const value = argv[name];
    const takesValue = declared.string?.includes(name) === true || declared.number.includes(name);
    if (takesValue && (value === '' || value === undefined) && [name, ...(declared.alias?.[name] ?? [])].some((n) => bare.has(n))) {
      // `team send bob hi --summary --as x` would send with an empty summary; `log --tail` print everything.
      throw new MailroomError('USAGE', `${needsValue(`--${name}`)}. Run with --help for usage.`, { details: { option: name } });
    }
    if (value === undefined) continue;
    const minMs = DURATION_OPTIONS[name];
    if (minMs !== undefined) {
      const ms = typeof value === 'number' ? value : parseDuration(value, `--${name}`, minMs);
      argv[name] = ms;
      argv[camelCase(name)] = ms;
      continue;
    }
    if (typeof value === 'boolean' && declared.string?.includes(name)) {
      // `--no-as` reaches the handler as `as: false`, where a name is expected.
      // Either spelling of an aliased option (`--no-from` for `--as`) comes here as the option's name.
      const spelled = [name, ...(declared.alias?.[name] ?? [])].map((n) => `--no-${n}`).join(' or ');
      throw new MailroomError('USAGE', `${spelled} was given, but --${name} takes a value: give --${name} <value>, or leave the option out. Run with --help for usage.`, { details: { option: name } });
    }
    if (Array.isArray(value) && value.length === 0 && declared.array.includes(name)) {
      // `task add x --blocked-by` (no ids) would silently mean "none".
      throw new MailroomError('USAGE', `--${name} was given without a value. Give one (e.g. --${name} ${name === 'blocked-by' || name === 'blocks' ? '1,2' : '<value>'}), or leave the option out. Run with --help for usage.`, { details: { option: name } });
    }
    if (Array.isArray(value) && !declared.array.includes(name)) {
      const names = [name, ...(declared.alias?.[name] ?? [])].filter((n) => n.length > 1 && !/[A-Z]/.test(n)).map((n) => `--${n}`).join('/');
      throw usage(`${names} was given ${value.length} times (${value.map((v) => JSON.stringify(v)).join(', ')}); it takes one value.`);
    }
    if (!declared.number.includes(name)) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      throw usage(`--${name} must be a whole number ≥ 0; got ${describe(value)}.`);
    }
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  return typeof value === 'number' && !Number.isNaN(value) ? String(value) : 'something that is not a number';
}

function usage(message: string): MailroomError {
  return new MailroomError('INVALID_ARGUMENT', `${message} Run with --help for usage.`);
}

/**
 * Store-selecting flags that cannot both hold: `--claude` (Claude Code's directory as the store)
 * with `--store`/$MAILROOM_STORE (another store) — one would silently lose. `mailroom bridge` joins
 * `--claude` (its local side) with `--store` (its shared side): there `--claude` with `--root` (two
 * local directories) conflicts. Elsewhere `--root` wins over `--claude`, as documented (docs/mcp.md).
 * @throws USAGE naming both and the fix
 */
export function checkSelectionFlags(args: { claude?: boolean | undefined; store?: string | undefined; root?: string | undefined }, options: { bridge?: boolean; env?: NodeJS.ProcessEnv } = {}): void {
  if (!args.claude) return;
  if (options.bridge) {
    if (args.root === undefined || args.root === '') return;
    throw new MailroomError('USAGE', `mailroom bridge got --claude and --root ${args.root}: both name the local directory to bridge. Give one: --claude for Claude Code's own directory ($CLAUDE_CONFIG_DIR or ~/.claude), or --root ${args.root}.`, { details: { root: args.root } });
  }
  const env = options.env ?? process.env;
  const store = args.store !== undefined && args.store !== '' ? { text: `--store ${redactUrl(args.store)}`, from: 'flag' } : env.MAILROOM_STORE ? { text: `$MAILROOM_STORE (${redactUrl(env.MAILROOM_STORE)})`, from: 'env' } : undefined;
  if (store === undefined) return;
  const fix = store.from === 'env' ? 'unset MAILROOM_STORE for this command (MAILROOM_STORE= mailroom …)' : 'drop --store';
  throw new MailroomError('USAGE', `--claude and ${store.text} name two different stores. To work on Claude Code's own teams, ${fix}; to work on that store, drop --claude. (mailroom bridge is the command that joins the two.)`, { details: { store: store.text } });
}
