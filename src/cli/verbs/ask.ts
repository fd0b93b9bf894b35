/** Bundle entry of `team ask` (dist/mailroom-ask.cjs, see src/cli/launch.cts). */
import type { CommandModule } from 'yargs';
import type { GlobalArgs } from '../globals.js';
import { runCli } from '../run-cli.js';
import { teamGroup } from '../commands/team-group.js';
import { teamAskCommand } from '../commands/team-ask.js';

/** Runs the CLI with only `team ask`. @returns the exit code. */
export function main(input: string[]): Promise<number> {
  return runCli(input, [teamGroup([teamAskCommand] as unknown as CommandModule<GlobalArgs, never>[])] as unknown as CommandModule<GlobalArgs, never>[]);
}
