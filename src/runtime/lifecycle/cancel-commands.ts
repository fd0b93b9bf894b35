/**
 * Cancelling a teammate's running commands when it is asked to stop (`mailroom team stop`): a
 * teammate busy in a task command (or a `command:` model's program) reads its inbox only when the
 * command ends, so the `shutdown_request` would wait for it — up to the command's timeout — and the
 * stop would be forced with the command left running in its own process group. Each command
 * recorded for the member on this machine (`CommandRecord`) is stopped: its process group gets
 * SIGTERM, then SIGKILL after {@link COMMAND_CANCEL_GRACE_MS}. The teammate's runtime sees the
 * command end (killed), records its outcome and answers the request; a record whose runtime is gone
 * is removed here. A process whose identity cannot be verified (pid reused) is never signalled.
 */
import { stopProcessGroup } from '../../core/processes/process-group.js';
import { mayBeRunning } from '../../core/processes/process-identity.js';
import type { CommandRecord } from '../../protocol/command.js';
import type { Stores } from '../../store/selection.js';

/** Time a cancelled command's process group gets between SIGTERM and SIGKILL (ms). */
export const COMMAND_CANCEL_GRACE_MS = 2_000;

/**
 * Stops every recorded running command of member `name` of `team` (see the module comment), in
 * parallel. @returns the pids of the commands that were signalled
 */
export async function cancelMemberCommands(stores: Stores, team: string, name: string, graceMs = COMMAND_CANCEL_GRACE_MS): Promise<number[]> {
  const records = (await stores.host.listCommandRecords(team).catch(() => [] as CommandRecord[])).filter((r) => r.agent === name);
  const signalled = await Promise.all(records.map((r) => cancelOne(stores, r, graceMs)));
  return records.filter((_, i) => signalled[i]).map((r) => r.pid);
}

async function cancelOne(stores: Stores, record: CommandRecord, graceMs: number): Promise<boolean> {
  const stop = await stopProcessGroup(stores.host, record.pgid, { pid: record.pid, startTime: record.startTime }, graceMs);
  // The runtime that ran it removes the record as the command ends; one whose runtime is gone cannot.
  const ended = stop.signalled ? stop.stopped : stop.liveness === 'dead';
  if (ended && !(await mayBeRunning(stores.host, record.owner))) await stores.host.deleteCommandRecord(record.team, record.pid).catch(() => undefined);
  return stop.signalled;
}
