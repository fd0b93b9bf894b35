/** Bundle entry of `task` (dist/mailroom-task.cjs, see src/cli/launch.cts). */
import type { CommandModule } from 'yargs';
import type { GlobalArgs } from '../globals.js';
import { runCli } from '../run-cli.js';
import { taskCommand } from '../commands/task.js';

/** Runs the CLI with only `task`. @returns the exit code. */
export function main(input: string[]): Promise<number> {
  return runCli(input, [taskCommand] as unknown as CommandModule<GlobalArgs, never>[]);
}
