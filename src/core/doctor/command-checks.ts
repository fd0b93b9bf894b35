/**
 * The doctor check for orphaned teammate commands (core/processes/orphan-commands.ts): one `orphan-command`
 * finding per command record whose owner runtime is dead. A command still running as recorded, a
 * record of a command that is gone, and a record whose pid is another process now are problems;
 * the repair stops the command's process group (SIGTERM, then SIGKILL) and removes the record.
 * A process whose identity cannot be verified is reported as `info` and never signalled.
 */
import type { Stores } from '../../store/selection.js';
import type { Check, DoctorFinding } from './findings.js';
import { describeCommand, findOrphanCommands, reapOrphan, type OrphanCommand } from '../processes/orphan-commands.js';
import { groupHasMembers } from '../processes/process-group.js';

/** One check per orphaned command record of `team` (every team when undefined, deleted ones too). */
export async function commandChecks(store: Stores, team?: string): Promise<Check[]> {
  return (await findOrphanCommands(store, team)).map((found) => ({
    finding: finding(found),
    fix: async () => {
      const reaped = await reapOrphan(store, found);
      return { done: reaped.action !== 'left', note: reaped.note, bytesFreed: 0 };
    },
  }));
}

function finding(found: OrphanCommand): DoctorFinding {
  const what = cap(describeCommand(found.record));
  const { owner, pid, pgid } = found.record;
  const runtime = `the runtime that started it (process ${owner.pid})`;
  const message = {
    orphan: `${what} still runs, but ${runtime} is gone: nothing will stop it.`,
    finished: groupHasMembers(pgid)
      ? `${what} has ended, but processes it started still run in its process group ${pgid}, and ${runtime} is gone: nothing will stop them.`
      : `${what} is recorded as running, but it has ended and ${runtime} died before removing the record.`,
    'pid-reused': `${what} is recorded, but ${runtime} is gone and pid ${pid} now belongs to another process (its start time differs), which is left alone.`,
    unverified: `${what} may still run (its pid is in use) and ${runtime} is gone, but with no recorded start time it cannot be told from another process: not signalled. Check it with \`ps -o pid,args -g ${pgid}\` and stop it yourself if it is the command.`,
  }[found.verdict];
  return { kind: 'orphan-command', severity: found.verdict === 'unverified' ? 'info' : 'problem', message, team: found.record.team };
}

function cap(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
