/**
 * Stopping a recorded process group — a teammate's command, whose `sh -c` was started detached and
 * so leads its own group — without ever signalling a process that merely inherited a pid: the
 * leader's identity (pid and start time) is checked before the first signal.
 */
import { livenessOf, waitUntilGone, type Liveness, type ProcessIdentity, type ProcessProber } from './process-identity.js';

/** Default time between SIGTERM and SIGKILL (ms). */
export const DEFAULT_GRACE_MS = 2_000;

/** What {@link stopProcessGroup} did. */
export type GroupStop =
  /** The group was signalled; `signal` is the last one it needed. `stopped` is false when the leader still ran 1 s after SIGKILL (e.g. stuck in the kernel). */
  | { signalled: true; signal: 'SIGTERM' | 'SIGKILL'; stopped: boolean }
  /** Nothing was signalled: the leader was not verifiably the recorded process (or does not lead the recorded group). */
  | { signalled: false; liveness: Exclude<Liveness, 'alive'> };

/**
 * Sends SIGTERM to process group `pgid`, then SIGKILL once the leader has exited or after
 * `graceMs` (so members that ignore SIGTERM go too). Signals only when the leader is `alive` as
 * recorded ({@link livenessOf}), and the group only when the leader leads it (`/proc` says its
 * process group is `pgid`): a record naming another group is never acted on. When the leader is
 * `pgid` itself but leads no group (a foreground `mailroom agent` started inside another process's
 * group), the process alone is signalled; so is pid 1, as `kill(-1)` would signal every process.
 * A process that left the group (`setsid`) is not reached.
 */
export async function stopProcessGroup(host: ProcessProber, pgid: number, leader: ProcessIdentity, graceMs = DEFAULT_GRACE_MS): Promise<GroupStop> {
  const liveness = await livenessOf(host, leader);
  if (liveness !== 'alive') return { signalled: false, liveness };
  const target = await targetOf(host, pgid, leader.pid);
  if (target === undefined) {
    const now = await livenessOf(host, leader); // it may have ended meanwhile
    return { signalled: false, liveness: now === 'alive' ? 'unverified' : now };
  }
  signal(target, 'SIGTERM');
  const termed = await waitUntilGone(host, leader, graceMs);
  // Once the leader is gone, only its group (if it led one) is still ours to signal.
  if (target < 0 || !termed) signal(target, 'SIGKILL');

  const stopped = termed || (await waitUntilGone(host, leader, 1_000));
  return { signalled: true, signal: termed ? 'SIGTERM' : 'SIGKILL', stopped };
}

/**
 * What `kill()` gets: `-pgid` when the leader leads group `pgid` (and `pgid` > 1), the leader's
 * own pid when `pgid` is that pid, else undefined (not verified: nothing is signalled).
 */
async function targetOf(host: ProcessProber, pgid: number, leaderPid: number): Promise<number | undefined> {
  const probe = await host.probeProcess(leaderPid);
  if (probe.kind !== 'running') return undefined;
  if (probe.pgid === pgid && pgid > 1) return -pgid;
  return pgid === leaderPid ? leaderPid : undefined;
}

function signal(target: number, name: NodeJS.Signals): void {
  try {
    process.kill(target, name);
  } catch {
    // gone
  }
}

/** True when process group `pgid` (> 1) still has members: `kill(-pgid, 0)` succeeds (EPERM: they belong to someone else). */
export function groupHasMembers(pgid: number): boolean {
  if (!Number.isInteger(pgid) || pgid < 2) return false;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Stops what is left of group `pgid` after its leader ended (a command's `server &` once its shell
 * exited): SIGTERM, then SIGKILL after `graceMs` if members remain. Call it only when no process has
 * the pid `pgid` (probe `exited`): Linux never gives a new process a pid still in use as a group id,
 * so the members are the leader's own descendants. @returns true when the group was signalled
 */
export async function stopLeaderlessGroup(host: ProcessProber, pgid: number, graceMs = DEFAULT_GRACE_MS): Promise<boolean> {
  if (!groupHasMembers(pgid) || (await host.probeProcess(pgid)).kind !== 'exited') return false;
  signal(-pgid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (groupHasMembers(pgid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  if (groupHasMembers(pgid)) signal(-pgid, 'SIGKILL');
  return true;
}
