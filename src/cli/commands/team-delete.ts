/**
 * `mailroom team delete <name>`: moves the team aside, restorable; refused while members run
 * (TEAMMATE_RUNNING), and with --force stops them first. Its own file: the --force path loads the
 * runtime's stop (shutdown handshake), which the other team verbs must not load.
 */
import type { Argv, CommandModule } from 'yargs';
import { emit, writeStderr } from '../output.js';
import { durationOption } from '../durations.js';
import { openStore, type GlobalArgs } from '../globals.js';

type Args<T> = GlobalArgs & T;

/** `team delete`. */
export const teamDeleteCommand: CommandModule<GlobalArgs, Args<{ name: string; force?: boolean; timeout?: number }>> = {
  command: 'delete <name>',
  describe: 'Delete a team: config, inboxes, tasks and history move aside, restorable (refused while members run)',
  builder: (y) =>
    y
      .positional('name', { type: 'string', demandOption: true, describe: 'Team to delete' })
      .option('force', { type: 'boolean', describe: 'Stop running teammates first (shutdown request, forced after --timeout), then delete' })
      .option('timeout', durationOption('With --force: how long each teammate gets to answer before it is forced (default 30s)'))
      .example('$0 team delete research', 'Delete team "research" (refused while a member runs)')
      .example('$0 team delete research --force --timeout 5s', 'Stop its teammates, then delete it') as Argv<Args<{ name: string; force?: boolean; timeout?: number }>>,
  handler: async (a) => {
    const { deleteTeamStopping } = await import('../../runtime/lifecycle/delete-team.js');
    const r = await deleteTeamStopping({
      root: await openStore(a),
      team: a.name,
      force: a.force,
      timeoutMs: a.timeout,
      onStopping: (m) => {
        if (!a.json) writeStderr(`Stopping ${m.name} (shutdown request; forced after ${Math.round((a.timeout ?? 30_000) / 1000)} s)…\n`);
      },
    });
    const { deleted } = r;
    emit(a.json, { deleted: a.name, id: deleted.id, location: deleted.location, stopped: r.stopped, stillRunning: r.stillRunning }, () => [
      ...r.stopped.map((s) => `Stopped ${s.name} (${{ approved: 'approved the shutdown', forced: 'forced', timeout: 'no answer in time: forced', 'not-running': 'was not running: removed' }[s.outcome]}${s.killedPid !== undefined ? `, killed process ${s.killedPid}` : ''})`),
      ...r.stillRunning.map((m) => `${m.name} still runs (${m.kind ?? 'process'}${m.pid !== undefined ? ` ${m.pid}` : ''}): it will find the team gone`),
      `Deleted team ${a.name}: config, inboxes, tasks and journal moved to ${deleted.location}; \`mailroom team restore ${a.name}\` brings it back`,
    ]);
  },
};

