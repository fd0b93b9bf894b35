/**
 * The `team <command>` group over a list of subcommands: all of them in the full CLI
 * (commands/team.ts), or the few a verb's own bundle loads (src/cli/verbs/).
 */
import type { Argv, CommandModule } from 'yargs';
import type { GlobalArgs } from '../globals.js';

/** The `team` command with `subcommands` (in help order). */
export function teamGroup(subcommands: readonly CommandModule<GlobalArgs, never>[]): CommandModule<GlobalArgs, GlobalArgs> {
  return {
    command: 'team <command>',
    describe: 'Teams: create, list, show, delete, restore, resume, spawn, stop, send, ask, broadcast, policy, rekey, unsign, endorse',
    builder: (y) =>
      y
        .command(subcommands as CommandModule<GlobalArgs, never>[])
        .example('$0 team create research && $0 team spawn alice', 'Create a team and add a teammate')
        .example('$0 team send alice "hi"', 'Message alice as the lead')
        .demandCommand(1, 'Name a team command (see --help).') as Argv<GlobalArgs>,
    handler: () => undefined,
  };
}
