/**
 * `mailroom store copy --team T --from <dir|url> --to <dir|url>`: copies a team between stores
 * (e.g. a Claude Code team into Redis and back), refusing to overwrite a team that exists.
 * `mailroom store grant --team T [--member M] [--print]`: a Redis ACL user fenced into team T's keys.
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

interface GrantArgs extends GlobalArgs {
  member?: string;
  print?: boolean;
}

const grant: CommandModule<GlobalArgs, GrantArgs> = {
  command: 'grant',
  describe: 'Create a Redis ACL user that can reach only this team\'s keys, and print its store URL (password shown once)',
  builder: (y) =>
    y
      .option('member', { type: 'string', describe: 'Name the user for one member\'s machine (mailroom-<team>-<member>), so its credentials can be revoked alone' })
      .option('print', { type: 'boolean', describe: 'Change nothing: print the ACL SETUSER command for the server\'s operator, and the URL it would give' })
      .demandOption('team')
      .example('$0 store grant --team demo --store redis://admin:secret@10.0.0.5:6379', 'A user for team demo; give the printed URL to its machines')
      .example('$0 store grant --team demo --member alice --print', 'Print the command for an operator to run') as Argv<GrantArgs>,
  handler: async (a) => {
    const { grantTeamAccess, resolveSelection } = await import('../../store/open.js');
    const selection = resolveSelection({ store: a.store, root: a.root, claude: a.claude });
    const r = await grantTeamAccess(selection, { team: a.team as string, member: a.member, print: a.print });
    emit(a.json, r, () =>
      r.applied
        ? [`Created Redis user ${r.user}: it reaches team ${a.team as string}'s keys only. Its store URL (the password is shown only now):`, r.url]
        : [`Run this on the server as an admin (nothing was changed):`, r.command, `Then give the team's machines this store URL (the password is shown only now):`, r.url],
    );
  },
};

/** The `store` subcommands. */
export const STORE_COMMANDS = [copy, grant] as unknown as CommandModule<GlobalArgs, GlobalArgs>[];

/** The `store` command group. */
export const storeCommand: CommandModule<GlobalArgs, GlobalArgs> = {
  command: 'store <command>',
  describe: 'Stores: copy a team between the filesystem and Redis; grant a team its own Redis user',
  builder: (y) => y.command(STORE_COMMANDS).demandCommand(1, 'Name a store command (see --help).') as Argv<GlobalArgs>,
  handler: () => undefined,
};
