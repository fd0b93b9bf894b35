/**
 * One bridge per (root, team) (issue 21 item 5b): two `mailroom bridge` processes on one root and
 * team would both copy every message (85 of 200 appeared twice in the Redis inbox). The bridge
 * claims a process record on this machine (`<root>/mailroom/bridge/<team>.pid.json`, the same
 * compare-and-write under a lock as a `mailroom agent`'s pid record) before it syncs anything; a
 * second is refused with BRIDGE_RUNNING naming the holder's pid, while a holder whose process is
 * gone (kill -9) or whose pid now belongs to another process is taken over at once.
 */
import { identify } from '../core/processes/process-identity.js';
import { MailroomError } from '../errors.js';
import type { ProcessRecord } from '../protocol/process.js';
import type { HostStore } from '../store/host-store.js';

/**
 * Claims the bridge of `team` on `host`'s root for this process; resolves with a release function.
 * @throws BRIDGE_RUNNING (exit 4; `details.pid`) while another bridge may still run
 */
export async function claimBridge(host: HostStore, team: string): Promise<() => Promise<void>> {
  const self = await identify(host, process.pid);
  const record: ProcessRecord = { team, agent: 'bridge', pid: process.pid, ...(self?.startTime !== undefined ? { startTime: self.startTime } : {}), startedAt: Date.now(), argv: process.argv };
  const holder = await host.claimBridgeRecord(team, record);
  if (holder) {
    throw new MailroomError(
      'BRIDGE_RUNNING',
      `A bridge for team "${team}" already runs on this root: process ${holder.pid} (started ${new Date(holder.startedAt).toISOString()}); a second would copy every message twice. Stop it first (\`kill ${holder.pid}\`), or use it.`,
      { details: { team, pid: holder.pid, startedAt: holder.startedAt } },
    );
  }
  return () => host.releaseBridgeRecord(team, process.pid).catch(() => undefined);
}
