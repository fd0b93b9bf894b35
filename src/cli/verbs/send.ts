/** Bundle entry of `team send` and `team broadcast` (dist/mailroom-send.cjs, see src/cli/launch.cts). */
import type { CommandModule } from 'yargs';
import type { GlobalArgs } from '../globals.js';
import { runVerb, type DirectCommand } from '../run-direct.js';
import { teamGroup } from '../commands/team-group.js';
import { BROADCAST_LINE, SEND_LINE, teamBroadcastCommand, teamSendCommand } from '../commands/team-send.js';

const DIRECT = [
  { line: SEND_LINE, handler: teamSendCommand.handler },
  { line: BROADCAST_LINE, handler: teamBroadcastCommand.handler },
] as unknown as DirectCommand[];

/** Runs the CLI with only `team send` and `team broadcast` (a plain line without yargs, src/cli/run-direct.ts). @returns the exit code. */
export function main(input: string[]): Promise<number> {
  return runVerb(input, DIRECT, () => [teamGroup([teamSendCommand, teamBroadcastCommand] as unknown as CommandModule<GlobalArgs, never>[])] as unknown as CommandModule<GlobalArgs, never>[]);
}
