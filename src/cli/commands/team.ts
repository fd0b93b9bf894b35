/**
 * `mailroom team …`: create, list, show, delete, spawn, send, broadcast.
 */
import { dirname } from 'node:path';
import { sweptTeamTarget } from '../swept-target.js';
import type { Argv, CommandModule } from 'yargs';
import { MailroomError } from '../../errors.js';
import { teamBroadcastCommand, teamSendCommand } from './team-send.js';
import { teamAskCommand } from './team-ask.js';
import { teamSpawnCommand } from './team-spawn.js';
import { teamResumeCommand } from './team-resume.js';
import { teamStopCommand } from './team-stop.js';
import { teamPolicyCommand } from './team-policy.js';
import { teamDeleteCommand } from './team-delete.js';
import { teamEndorseCommand, teamRekeyCommand, teamUnsignCommand } from './team-signing.js';
import { emit, writeStderr } from '../output.js';
import { terminalSafe } from '../../core/text/terminal-text.js';
import { hintScope, scopeHints } from '../../core/text/hint-scope.js';
import { teamGroup } from './team-group.js';
import { muteWarnings, openStore, teamTarget, type GlobalArgs } from '../globals.js';
import { teamDetail } from '../render/text.js';
import { plural } from '../../core/text/plural.js';

type Args<T> = GlobalArgs & T;

const create: CommandModule<GlobalArgs, Args<{ team: string; description?: string; signed?: boolean }>> = {
  command: 'create <team>',
  describe: 'Create a team (config.json with the lead, and its task list)',
  builder: (y) =>
    y
      .positional('team', { type: 'string', demandOption: true, describe: 'Team name (^[a-z0-9][a-z0-9-]{0,63}$)' })
      .option('description', { type: 'string', describe: 'Free-text description' })
      .option('signed', { type: 'boolean', describe: 'Every mailroom member signs what it sends (Ed25519 key per member); unsigned or forged messages are withheld' })
      .example('$0 team create research --description "Literature review"', 'Create team "research"')
      .example('$0 team create ops --signed', 'A team where a hand-written shutdown_request stops nobody') as Argv<Args<{ team: string; description?: string; signed?: boolean }>>,
  handler: async (a) => {
    const { createTeam } = await import('../../core/teams/team-lifecycle.js');
    const root = await openStore(a);
    if (a.signed && ((await root.host.readTeamKey(a.team)) !== undefined || (await root.host.readLeadPin(a.team)) !== undefined)) {
      throw new MailroomError('TEAM_EXISTS', `Signing keys of an earlier team "${a.team}" are left on this machine (${root.host.location}/mailroom/keys/${a.team}/ or ${a.team}.key): move them away, or restore that team.`);
    }
    const config = await createTeam({ root, team: a.team, description: a.description });
    const signing = a.signed ? await (await import('../../core/teams/signing.js')).enableSigning({ root, team: a.team }) : undefined;
    emit(a.json, signing ? { ...config, signing } : config, () => `Created team ${config.name} (lead: team-lead)${signing ? `, signed (key ${signing.keyId})` : ''}`);
  },
};

/**
 * `team list`: the readable teams on stdout (also with --json), as `ls` lists what it can. Each
 * team that cannot be read is named once, on stderr, with the fix: a corrupt config.json, or a
 * missing one beside inboxes, is FILE_CORRUPT (exit 7: the list is not the whole store, mail is
 * hidden); a directory with neither a config nor an inbox is a note (exit 0: nothing is hidden).
 * docs/cli.md "team list".
 */
const list: CommandModule<GlobalArgs, GlobalArgs> = {
  command: 'list',
  describe: 'List teams (exit 7 when a team cannot be read: it is named on stderr with the fix)',
  builder: (y) => y.example('$0 team list --claude', "List Claude Code's teams"),
  handler: async (a) => {
    const { listTeams, unreadableTeams, unreadableTeamsError } = await import('../../core/teams/team-lifecycle.js');
    const root = await openStore(a);
    muteWarnings('mailroom: skipping team directory '); // named below, once
    const teams = await listTeams({ root });
    const found = await unreadableTeams({ root });
    const unreadable = found.filter((u) => !u.noMail);
    emit(a.json, teams, () => (teams.length > 0 || found.length > 0 ? teams : ['(no teams)']));
    for (const stray of found.filter((u) => u.noMail)) {
      const note = `mailroom: ${stray.team}: no config.json in ${dirname(stray.location)} (and no inbox), so no command sees this team. Run \`mailroom doctor --fix\` to rebuild its config from the team's journal, or remove the directory.`;
      writeStderr(`${terminalSafe(scopeHints(note, hintScope(process.argv.slice(2))))}\n`);
    }
    if (unreadable.length > 0) throw unreadableTeamsError(unreadable); // exit 7: the list is not the whole store
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
    const target = await sweptTeamTarget({ ...a, team: a.name ?? a.team });
    const { showTeam } = await import('../../core/teams/team-lifecycle.js');
    const summary = await showTeam(target);
    emit(a.json, summary, () => teamDetail(summary));
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
    const { listDeletedTeams, restoreTeam } = await import('../../core/teams/team-lifecycle.js');
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
export const TEAM_COMMANDS = [create, list, show, teamDeleteCommand, restore, teamResumeCommand, teamSpawnCommand, teamStopCommand, teamSendCommand, teamAskCommand, teamBroadcastCommand, teamPolicyCommand, teamRekeyCommand, teamUnsignCommand, teamEndorseCommand] as unknown as CommandModule<GlobalArgs, GlobalArgs>[];

/** The `team` command group. */
export const teamCommand: CommandModule<GlobalArgs, GlobalArgs> = teamGroup(TEAM_COMMANDS as CommandModule<GlobalArgs, never>[]);
