/** Bundle entry of `team send` and `team broadcast` (dist/mailroom-send.cjs, see src/cli/launch.cts). */
import type { CommandModule } from 'yargs';
import type { GlobalArgs } from '../globals.js';
import { runCli } from '../run-cli.js';
import { teamGroup } from '../commands/team-group.js';
import { teamBroadcastCommand, teamSendCommand } from '../commands/team-send.js';

/** Runs the CLI with only `team send` and `team broadcast`. @returns the exit code. */
export function main(input: string[]): Promise<number> {
  return runCli(input, [teamGroup([teamSendCommand, teamBroadcastCommand] as unknown as CommandModule<GlobalArgs, never>[])] as unknown as CommandModule<GlobalArgs, never>[]);
}
