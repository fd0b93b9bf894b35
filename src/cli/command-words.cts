/**
 * The command words of a CLI argument list (`--root /x team send bob hi` → `team`, `send`), read
 * without yargs: the launcher (src/cli/launch.cts) picks the bundle of a verb from them before any
 * CLI code loads, and the CLI picks how to run zod. A CommonJS module (`.cts`) so the launcher
 * can require it; it imports nothing.
 */

/** Global options that take a value (src/cli/globals.ts), as `--opt v` or `--opt=v`. */
const VALUED = new Set(['--store', '--root', '--team', '--store-timeout']);
/** Global boolean options (src/cli/globals.ts), with yargs' `--no-` forms. */
const FLAGS = new Set(['--claude', '--json', '--allow-volatile', '--no-claude', '--no-json', '--no-allow-volatile']);

/**
 * Up to `count` command words of `argv` (without `node` and the script), skipping the global
 * options around them. Stops at the first other option (a verb's own, or `--help`): the words
 * before it. Undefined when `--` comes first or there is no word at all.
 */
export function commandWords(argv: readonly string[], count = 2): string[] | undefined {
  const words: string[] = [];
  for (let i = 0; i < argv.length && words.length < count; i++) {
    const arg = argv[i] as string;
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      const name = arg.split('=', 1)[0] as string;
      if (VALUED.has(name)) {
        if (!arg.includes('=')) i++;
        continue;
      }
      if (FLAGS.has(name)) continue;
      break;
    }
    words.push(arg);
  }
  return words.length > 0 ? words : undefined;
}
