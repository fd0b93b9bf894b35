/**
 * Entry of the hot verbs' bundles (src/cli/verbs/): a plain command line read by the direct
 * reader (src/cli/direct-args.ts) runs its handler here, without loading yargs; any other line
 * goes to the CLI's parser (src/cli/run-cli.ts), loaded only then. Either way the handler sees
 * the same arguments, the same option checks run first, and errors map to exit codes the same way.
 */
import type { CommandModule } from 'yargs';
import { config as zodConfig } from 'zod';
import type { CommandLine } from './command-line.js';
import { readDirect, type DirectArgs } from './direct-args.js';
import { closeStores, GLOBAL_OPTIONS, warnAtEveryStart, type GlobalArgs } from './globals.js';
import { checkOptionValues } from './option-checks.js';
import { reportError } from './output.js';
import { hintScope } from '../core/text/hint-scope.js';
import { optionPart, putValuesAside } from './value-args.js';

/** A command the direct reader can run: its line and its yargs handler. */
export interface DirectCommand {
  readonly line: CommandLine;
  readonly handler: (args: DirectArgs) => void | Promise<void>;
  /** A long-lived process (`mcp`, a server): it shows the store's durability warning at each start, as run-cli.ts has it. */
  readonly longLived?: boolean;
}

/** The option names `checkOptionValues` looks at for `line` (its own and the global ones), as yargs' `getOptions()` reports them. */
function declaredOf(line: CommandLine): Parameters<typeof checkOptionValues>[1] {
  const key: Record<string, true> = {};
  for (const name of [...Object.keys(GLOBAL_OPTIONS), ...Object.keys(line.options)]) key[name] = true;
  const alias: Record<string, string[]> = {};
  for (const [name, o] of Object.entries(line.options)) if (o.alias) alias[name] = [o.alias];
  const string = Object.entries({ ...GLOBAL_OPTIONS, ...line.options }).flatMap(([name, o]) => (o.type === 'string' ? [name] : []));
  return { array: [], number: [], string, key, alias };
}

/**
 * Runs `input` (without `node` and the script): directly when it is a plain line of one of
 * `direct`, else through yargs with the top-level `commands`.
 * @returns the process exit code.
 */
export async function runVerb(input: string[], direct: readonly DirectCommand[], commands: () => readonly CommandModule<GlobalArgs, never>[]): Promise<number> {
  const values = putValuesAside(input);
  const read = readDirect(values.argv, direct.map((d) => d.line));
  const command = read && direct.find((d) => d.line === read.line);
  if (!read || !command) {
    const { runCli } = await import('./run-cli.js');
    return runCli(input, commands());
  }
  // As run-cli.ts does for a one-shot verb and for `mcp` (whose calls parse a few documents each).
  zodConfig({ jitless: true });
  if (command.longLived) warnAtEveryStart();
  try {
    checkOptionValues(values.restore(read.args), declaredOf(read.line));
    await command.handler(read.args);
    return 0;
  } catch (err) {
    return reportError(err, optionPart(input).includes('--json'), hintScope(input));
  } finally {
    await closeStores();
  }
}
