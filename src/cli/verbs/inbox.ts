/** Bundle entry of `inbox` (dist/mailroom-inbox.cjs, see src/cli/launch.cts). */
import type { CommandModule } from 'yargs';
import type { GlobalArgs } from '../globals.js';
import { runCli } from '../run-cli.js';
import { inboxCommand } from '../commands/inbox.js';

/** Runs the CLI with only `inbox`. @returns the exit code. */
export function main(input: string[]): Promise<number> {
  return runCli(input, [inboxCommand] as unknown as CommandModule<GlobalArgs, never>[]);
}
