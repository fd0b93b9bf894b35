/**
 * `mailroom team stop <name>`: the shutdown handshake with a teammate, forced after a timeout (or at
 * once with --force): its process (process backend) is stopped, it leaves config.json and its open
 * tasks go back to pending with no owner.
 */
import type { Argv, CommandModule } from 'yargs';
import { emit, writeStderr } from '../output.js';
import { durationOption } from '../durations.js';
import { teamTarget, type GlobalArgs } from '../globals.js';
import type { StopWait } from '../../runtime/lifecycle/stop.js';

interface StopArgs extends GlobalArgs {
  name: string;
  force?: boolean;
  timeout?: number;
  reason?: string;
  as?: string;
}

/** `team stop`. */
export const teamStopCommand: CommandModule<GlobalArgs, StopArgs> = {
  command: 'stop <name>',
  describe: 'Shut a teammate down (shutdown_request → approve; forced after --timeout or with --force)',
  builder: (y) =>
    y
      .positional('name', { type: 'string', demandOption: true, describe: 'Teammate to stop' })
      .option('force', { type: 'boolean', describe: 'Do not ask: kill its process and remove it now' })
      .option('timeout', durationOption('How long to wait for an answer before forcing (default 30s)'))
      .option('reason', { type: 'string', describe: 'Reason sent with the shutdown_request' })
      .option('as', { type: 'string', describe: 'Who asks for the stop (default: team-lead); the team policy (stopMembers) binds this member. The shutdown_request itself comes from the lead, the only sender Claude Code obeys' })
      .example('$0 team stop alice', 'Ask alice to shut down, force after 30 s')
      .example('$0 team stop alice --timeout 2m', 'Give alice two minutes to finish')
      .example('$0 team stop alice --force', 'Kill alice now and unassign her tasks') as Argv<StopArgs>,
  handler: async (a) => {
    const { stopTeammate } = await import('../../runtime/lifecycle/stop.js');
    const target = await teamTarget(a);
    const r = await stopTeammate({ ...target, as: a.as, name: a.name, force: a.force, timeoutMs: a.timeout, reason: a.reason, onWaiting: (w) => {
        // With --json, stderr carries only the JSON error object.
        if (!a.json) writeStderr(`${waitingLine(a.name, w)}\n`);
      },
    });
    emit(a.json, r, () => {
      const how = { approved: 'approved the shutdown', forced: 'was stopped (--force)', timeout: 'did not answer in time: stopped', 'not-running': 'was not running (no heartbeat, no process), so it was not asked: removed' }[r.outcome];
      const tasks = r.unassigned.length ? `; unassigned ${r.unassigned.map((id) => `#${id}`).join(', ')}` : '';
      const pid = r.killedPid !== undefined ? `; killed process ${r.killedPid}` : '';
      const pane = r.closedPane !== undefined ? `; closed tmux pane ${r.closedPane}` : '';
      const n = r.deadLettered?.length ?? 0;
      const dead = n > 0 ? `; ${n} unread message${n === 1 ? '' : 's'} dead-lettered, senders told (\`mailroom dead-letter list\`)` : '';
      const c = r.cancelledCommands ?? [];
      const cancelled = c.length > 0 ? `; cancelled ${c.length} running command${c.length === 1 ? '' : 's'} (pid ${c.join(', ')})` : '';
      return `${r.name} ${how} and left team ${target.team}${tasks}${cancelled}${pid}${pane}${dead}`;
    });
  },
};

/** The stderr line while `team stop` waits for the answer. */
function waitingLine(name: string, w: StopWait): string {
  const line = `Asked ${name} to shut down (${w.requestId}); waiting up to ${w.timeoutMs >= 1000 ? `${Math.round(w.timeoutMs / 1000)} s` : `${w.timeoutMs} ms`} for the answer, then forcing.`;
  return w.recordedProcess || w.present ? line : `${line} No running \`mailroom agent\` process is recorded for ${name}: unless a \`mailroom run\` or another client serves it, nothing will answer — Ctrl-C and use --force.`;
}
