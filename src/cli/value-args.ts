/**
 * Arguments that begin with a dash but are values, not options. yargs (and the direct reader,
 * src/cli/direct-args.ts, which follows it) reads every argument that begins with `-` as options
 * (yargs/yargs-parser#177), so a message text such as a Markdown list (`"- item one"`), `"-1 is
 * wrong"` or `"--force is needed"` was refused with a garbled USAGE error; and it fills no
 * positional from after `--` (yargs#2423). Before either parser runs, such an argument is put
 * aside and replaced by a placeholder that does not begin with a dash; the parsed arguments get
 * the original back before any check or handler sees them. A value argument is:
 *
 * - any argument after the first `--`: POSIX's end of options;
 * - an argument beginning with `-` whose part before any `=` contains whitespace: no option is
 *   spelled so (`--summary=two words` stays an option with its value);
 * - a negative number, with or without a unit (`-5s`, `-1h`, `-.5s`, `-5`), right after a time
 *   option ({@link TIME_OPTIONS}): yargs takes only a plain negative number for a value
 *   (yargs-parser#33; not `-.1`, yargs#1204), so `--timeout -5s` was the options -5 and -s and an
 *   "unexpected argument", and `--timeout -1h` a help group. Put aside as the option's value, it
 *   reaches the duration parser, which refuses it as negative, naming the option (durations.ts).
 *
 * The `--` itself becomes {@link END}, an option nobody can type, so that an option before it
 * does not take the values after it (an array option such as `--metadata k=v -- title` would
 * take them all); {@link ValueArgs.restore} removes it. Options are read only before the first
 * `--` ({@link optionPart}): a `--json` or `--help` after it is a text.
 */

import { DURATION_OPTIONS } from './durations.js';

/** A command line with its value arguments put aside, and the way back. */
export interface ValueArgs {
  /** The arguments for the parser: placeholders in place of the value arguments. */
  readonly argv: string[];
  /** Puts the originals back into a parsed arguments object, in place (strings and arrays of strings). */
  restore<T extends Record<string, unknown>>(args: T): T;
  /** Puts the originals back into a parser's message. */
  text(message: string): string;
}

/** Placeholders begin with NUL, which no argument of a process can contain (C strings). */
const MARK = '\u0000';
const PLACEHOLDER = /\u0000(\d+)\u0000/g;
/** The key of the end-of-options marker that stands where `--` was (`--<key>=`: it takes no next argument). */
const END_KEY = `${MARK}end`;
/** The argument that stands where `--` was: an option with an empty value that ends any option before it. */
export const END = `--${END_KEY}=`;

/** The arguments before the first `--`: the only place options are read. */
export function optionPart(argv: readonly string[]): readonly string[] {
  const end = argv.indexOf('--');
  return end < 0 ? argv : argv.slice(0, end);
}

/**
 * The value each option was typed with, by name (`--tail -1` and `--tail=-1` give `tail` → `-1`):
 * a number option that yargs could not read as one keeps what was typed for its message.
 */
function typedValues(part: readonly string[]): Map<string, string> {
  const typed = new Map<string, string>();
  part.forEach((arg, i) => {
    const m = /^--?([^=\s-][^=\s]*)(?:=([\s\S]*))?$/.exec(arg);
    if (!m) return;
    const value = m[2] ?? part[i + 1];
    if (value !== undefined) typed.set(m[1]!, value);
  });
  return typed;
}

/** The options whose value is a duration (src/cli/durations.ts, and the global `--store-timeout`), as typed. */
const TIME_OPTIONS: ReadonlySet<string> = new Set([...Object.keys(DURATION_OPTIONS), 'store-timeout'].map((name) => `--${name}`));

/** True when `arg`, typed after `previous`, is a time option's negative value (`--timeout -5s`). */
function isNegativeTime(previous: string | undefined, arg: string): boolean {
  return previous !== undefined && TIME_OPTIONS.has(previous) && /^-\.?\d/.test(arg);
}

/** True when `arg` begins with `-` but cannot be an option's spelling. */
function isDashValue(arg: string): boolean {
  if (!arg.startsWith('-') || arg === '-') return false;
  const eq = arg.indexOf('=');
  return /\s/.test(eq < 0 ? arg : arg.slice(0, eq));
}

/**
 * Puts the value arguments of `input` aside (see the module comment). A TAB press's line
 * (`--get-yargs-completions`) is left as it is: completion reads the words as typed.
 */
export function putValuesAside(input: readonly string[]): ValueArgs {
  const originals: string[] = [];
  const aside = (arg: string): string => `${MARK}${originals.push(arg) - 1}${MARK}`;
  const argv: string[] = [];
  if (optionPart(input).includes('--get-yargs-completions')) argv.push(...input);
  else {
    let ended = false;
    input.forEach((arg, i) => {
      if (!ended && arg === '--') {
        ended = true;
        argv.push(END);
      } else argv.push(ended || isDashValue(arg) || isNegativeTime(input[i - 1], arg) ? aside(arg) : arg);
    });
  }
  const typed = typedValues(optionPart(input));
  const back = (s: string): string => (s.includes(MARK) ? s.replace(PLACEHOLDER, (m, n: string) => originals[Number(n)] ?? m) : s);
  const value = (v: unknown): unknown => (typeof v === 'string' ? back(v) : Array.isArray(v) ? v.map(value) : v);
  return {
    argv,
    restore(args) {
      const all = args as Record<string, unknown>;
      delete all[END_KEY];
      for (const key of Object.keys(all)) {
        const v = all[key];
        // A number option given a value that is not one (yargs made it NaN): the value as typed, for the option checks' message.
        if (typeof v === 'number' && Number.isNaN(v) && typed.has(key)) all[key] = typed.get(key);
        else if (originals.length > 0) all[key] = value(v);
      }
      return args;
    },
    text: (message) => back(message).split(END).join('--').split(END_KEY).join('--'),
  };
}
