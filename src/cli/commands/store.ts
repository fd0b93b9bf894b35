/**
 * `mailroom store copy --team T --from <dir|url> --to <dir|url>`: copies a team between stores
 * (e.g. a Claude Code team into Redis and back), refusing to overwrite a team that exists.
 */
import type { Argv, CommandModule } from 'yargs';
import { emit } from '../output.js';
import { openStoreNamed, type GlobalArgs } from '../globals.js';
import { plural } from '../../core/text/plural.js';

interface CopyArgs extends GlobalArgs {
  from: string;
  to: string;
}

const copy: CommandModule<GlobalArgs, CopyArgs> = {
  command: 'copy',
  describe: 'Copy a team (config, inboxes, tasks, member records, journal) to another store; never overwrites a team',
  builder: (y) =>
    y
      .option('from', { type: 'string', demandOption: true, describe: 'Source store: a directory (files) or redis://host:port[/db]' })
      .option('to', { type: 'string', demandOption: true, describe: 'Target store: a directory (files) or redis://host:port[/db]' })
      .demandOption('team')
      .example('$0 store copy --team demo --from ~/.mailroom --to redis://10.0.0.5:6379', 'Move team "demo" into Redis')
      .example('$0 store copy --team session-1a2b --from ~/.claude --to /tmp/copy', "Copy a Claude Code team to a directory") as Argv<CopyArgs>,
  handler: async (a) => {
    const { copyTeam } = await import('../../core/teams/store-copy.js');
    const from = await openStoreNamed(a.from, a);
    const to = await openStoreNamed(a.to, a);
    const report = await copyTeam({ from, to, team: a.team as string });
    emit(a.json, report, () => [
      `Copied team ${report.team} from ${report.from} to ${report.to}: ${plural(report.members, 'member')}, ${plural(report.entries, 'message')} in ${plural(report.inboxes, 'inbox', 'inboxes')} (${report.unread} unread, ${report.archived} archived), ${plural(report.tasks, 'task')}, ${plural(report.events, 'journal event')}.`,
    ]);
  },
};

/** The `store` subcommands. */
export const STORE_COMMANDS = [copy] as unknown as CommandModule<GlobalArgs, GlobalArgs>[];

/** The `store` command group. */
export const storeCommand: CommandModule<GlobalArgs, GlobalArgs> = {
  command: 'store <command>',
  describe: 'Stores: copy a team between the filesystem and Redis',
  builder: (y) => y.command(STORE_COMMANDS).demandCommand(1, 'Name a store command (see --help).') as Argv<GlobalArgs>,
  handler: () => undefined,
};
