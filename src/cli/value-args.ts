/**
 * Arguments that begin with a dash but are values, not options. yargs (and the direct reader,
 * src/cli/direct-args.ts, which follows it) reads every argument that begins with `-` as options
 * (yargs/yargs-parser#177), so a message text such as a Markdown list (`"- item one"`), `"-1 is
 * wrong"` or `"--force is needed"` was refused with a garbled USAGE error; and it fills no
 * positional from after `--` (yargs#2423). Before either parser runs, such an argument is put
 * aside and replaced by a placeholder that does not begin with a dash; the parsed arguments get
 * the original back before any check or handler sees them. A value argument is:
 *
 * - any argument after the first `--` (which is dropped): POSIX's end of options;
 * - an argument beginning with `-` whose part before any `=` contains whitespace: no option is
 *   spelled so (`--summary=two words` stays an option with its value).
 */

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
  if (input.includes('--get-yargs-completions')) argv.push(...input);
  else {
    let ended = false;
    for (const arg of input) {
      if (!ended && arg === '--') ended = true;
      else argv.push(ended || isDashValue(arg) ? aside(arg) : arg);
    }
  }
  const back = (s: string): string => (s.includes(MARK) ? s.replace(PLACEHOLDER, (m, n: string) => originals[Number(n)] ?? m) : s);
  const value = (v: unknown): unknown => (typeof v === 'string' ? back(v) : Array.isArray(v) ? v.map(value) : v);
  return {
    argv,
    restore(args) {
      if (originals.length === 0) return args;
      for (const key of Object.keys(args)) (args as Record<string, unknown>)[key] = value(args[key]);
      return args;
    },
    text: back,
  };
}
