/**
 * Examples in `--help` that can be copied as printed. yargs lays examples out in two columns and
 * breaks a long command inside the first one, even inside a quoted text ("Start with the 2024" /
 * "survey"), so a reader who copies the line copies half a command. yargs prints an example that
 * has no description across the whole width (trimmed, so it cannot be indented), so each example
 * is given to it as two such lines, as kubectl's help shows them: what it does as a shell comment
 * (`# Message researcher as the lead`), then the command.
 */
import type { Argv } from 'yargs';

/** One example as yargs' `.example()` takes it: the command line, and what it does. */
type Example = [command: string, description?: string];

/**
 * Makes `y.example(...)` (for this instance and every command built on it) print each example as
 * its description, as a `# ` comment line, then its command on a line of its own. Returns `y`.
 */
export function examplesOnTheirOwnLines<T>(y: Argv<T>): Argv<T> {
  const add = y.example.bind(y) as (command: string, description: string) => Argv<T>;
  const example = (command: string | readonly Example[], description?: string): Argv<T> => {
    const all: readonly Example[] = typeof command === 'string' ? [[command, description]] : command;
    for (const [line, what] of all) {
      if (what) add(`# ${what}`, '');
      add(line, '');
    }
    return y;
  };
  Object.assign(y, { example });
  return y;
}
