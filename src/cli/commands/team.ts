/**
 * `mailroom team …`: create, list, show, delete, spawn, send, broadcast.
 */
import type { Argv, CommandModule } from 'yargs';
import { teamBroadcastCommand, teamSendCommand } from './team-send.js';
import { teamSpawnCommand } from './team-spawn.js';
import { teamResumeCommand } from './team-resume.js';
import { teamStopCommand } from './team-stop.js';
import { emit } from '../output.js';
import { openStore, teamTarget, type GlobalArgs } from '../globals.js';
import { teamDetail } from '../render/text.js';
import { plural } from '../render/plural.js';

type Args<T> = GlobalArgs & T;

const create: CommandModule<GlobalArgs, Args<{ team: string; description?: string }>> = {
  command: 'create <team>',
  describe: 'Create a team (config.json with the lead, and its task list)',
  builder: (y) =>
    y
      .positional('team', { type: 'string', demandOption: true, describe: 'Team name (^[a-z0-9][a-z0-9-]{0,63}$)' })
      .option('description', { type: 'string', describe: 'Free-text description' })
      .example('$0 team create research --description "Literature review"', 'Create team "research"') as Argv<Args<{ team: string; description?: string }>>,
  handler: async (a) => {
    const { createTeam } = await import('../../core/teams.js');
    const config = await createTeam({ root: await openStore(a), team: a.team, description: a.description });
    emit(a.json, config, () => `Created team ${config.name} (lead: team-lead)`);
  },
};

const list: CommandModule<GlobalArgs, GlobalArgs> = {
  command: 'list',
  describe: 'List teams',
  builder: (y) => y.example('$0 team list --claude', "List Claude Code's teams"),
  handler: async (a) => {
    const { listTeams } = await import('../../core/teams.js');
    const teams = await listTeams({ root: await openStore(a) });
    emit(a.json, teams, () => (teams.length ? teams : ['(no teams)']));
  },
};

const show: CommandModule<GlobalArgs, Args<{ name?: string }>> = {
  command: 'show [name]',
  describe: 'Show members (type, model, backend, color, unread) and task counts',
  builder: (y) =>
    y
      .positional('name', { type: 'string', describe: 'Team (default: --team, $MAILROOM_TEAM, or the only team)' })
      .example('$0 team show research', 'Show team "research"') as Argv<Args<{ name?: string }>>,
  handler: async (a) => {
    const target = await teamTarget({ ...a, team: a.name ?? a.team });
    const { showTeam } = await import('../../core/teams.js');
    const summary = await showTeam(target);
    emit(a.json, summary, () => teamDetail(summary));
  },
};

const remove: CommandModule<GlobalArgs, Args<{ name: string; force?: boolean }>> = {
  command: 'delete <name>',
  describe: 'Delete a team: config, inboxes, tasks and history move aside, restorable (refused while teammates are active)',
  builder: (y) =>
    y
      .positional('name', { type: 'string', demandOption: true, describe: 'Team to delete' })
      .option('force', { type: 'boolean', describe: 'Delete even with active teammates' })
      .example('$0 team delete research', 'Delete team "research"') as Argv<Args<{ name: string; force?: boolean }>>,
  handler: async (a) => {
    const { deleteTeam } = await import('../../core/teams.js');
    const deleted = await deleteTeam({ root: await openStore(a), team: a.name, force: a.force });
    emit(a.json, { deleted: a.name, id: deleted.id, location: deleted.location }, () => `Deleted team ${a.name} (moved to ${deleted.location}; \`mailroom team restore ${a.name}\` brings it back)`);
  },
};

const restore: CommandModule<GlobalArgs, Args<{ name?: string; list?: boolean }>> = {
  command: 'restore [name]',
  describe: 'Bring back a team removed by `team delete` (its latest deletion, or one id from --list)',
  builder: (y) =>
    y
      .positional('name', { type: 'string', describe: 'Team name, or the id of one deletion (see --list)' })
      .option('list', { type: 'boolean', describe: 'List deleted teams (newest first) instead' })
      .example('$0 team restore research', 'Restore the most recently deleted team "research"')
      .example('$0 team restore --list', 'Show every deleted team with its id') as Argv<Args<{ name?: string; list?: boolean }>>,
  handler: async (a) => {
    const root = await openStore(a);
    const { listDeletedTeams, restoreTeam } = await import('../../core/teams.js');
    if (a.list || a.name === undefined) {
      const deleted = await listDeletedTeams({ root, team: a.name });
      emit(a.json, deleted, () => (deleted.length ? deleted.map((d) => `${d.id}  ${d.team}  deleted ${new Date(d.deletedAt).toISOString()}`) : ['(no deleted teams)']));
      return;
    }
    const config = await restoreTeam({ root, id: a.name });
    emit(a.json, config, () => `Restored team ${config.name} (${plural(config.members.length, 'member')})`);
  },
};

/** The subcommands of `team`, in help order. */
export const TEAM_COMMANDS = [create, list, show, remove, restore, teamResumeCommand, teamSpawnCommand, teamStopCommand, teamSendCommand, teamBroadcastCommand] as unknown as CommandModule<GlobalArgs, GlobalArgs>[];

/** The `team` command group. */
export const teamCommand: CommandModule<GlobalArgs, GlobalArgs> = {
  command: 'team <command>',
  describe: 'Teams: create, list, show, delete, restore, spawn, stop, send, broadcast',
  builder: (y) =>
    y
      .command(TEAM_COMMANDS)
      .example('$0 team create research && $0 team spawn alice', 'Create a team and add a teammate')
      .example('$0 team send alice "hi"', 'Message alice as the lead')
      .demandCommand(1, 'Name a team command (see --help).') as Argv<GlobalArgs>,
  handler: () => undefined,
};
