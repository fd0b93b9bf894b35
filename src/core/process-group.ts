/**
 * Stopping a recorded process group — a teammate's command, whose `sh -c` was started detached and
 * so leads its own group — without ever signalling a process that merely inherited a pid: the
 * leader's identity (pid and start time) is checked before the first signal.
 */
import { livenessOf, waitUntilGone, type Liveness, type ProcessIdentity } from './process-identity.js';

/** Default time between SIGTERM and SIGKILL (ms). */
export const DEFAULT_GRACE_MS = 2_000;

/** What {@link stopProcessGroup} did. */
export type GroupStop =
  /** The group was signalled; `signal` is the last one it needed. `stopped` is false when the leader still ran 1 s after SIGKILL (e.g. stuck in the kernel). */
  | { signalled: true; signal: 'SIGTERM' | 'SIGKILL'; stopped: boolean }
  /** Nothing was signalled: the leader was not verifiably the recorded process. */
  | { signalled: false; liveness: Exclude<Liveness, 'alive'> };

/**
 * Sends SIGTERM to process group `pgid`, then SIGKILL once the leader has exited or after
 * `graceMs` (so members that ignore SIGTERM go too). Signals only when the leader is `alive` as
 * recorded ({@link livenessOf}). A process that left the group (`setsid`) is not reached. When no
 * group `pgid` exists (a foreground `mailroom agent` started inside another process's group), the
 * process `pgid` alone is signalled.
 */
export async function stopProcessGroup(pgid: number, leader: ProcessIdentity, graceMs = DEFAULT_GRACE_MS): Promise<GroupStop> {
  const liveness = await livenessOf(leader);
  if (liveness !== 'alive') return { signalled: false, liveness };
  signal(pgid, 'SIGTERM', true);
  const termed = await waitUntilGone(leader, graceMs);
  signal(pgid, 'SIGKILL', !termed); // once the leader is gone, its pid is not ours to signal

  const stopped = termed || (await waitUntilGone(leader, 1_000));
  return { signalled: true, signal: termed ? 'SIGTERM' : 'SIGKILL', stopped };
}

/** Signals the group; when there is no such group and `orLeader`, the process `pgid` itself. */
function signal(pgid: number, name: NodeJS.Signals, orLeader: boolean): void {
  try {
    process.kill(-pgid, name);
  } catch {
    if (!orLeader) return;
    try {
      process.kill(pgid, name);
    } catch {
      // gone
    }
  }
}
