/**
 * Telling a recorded process from whatever has its pid now (pure): a pid is reused by the kernel
 * once its process is gone, so a record keeps the pid *and* the start time (`/proc/<pid>/stat`
 * field 22): the same pid with another start time is another process. The probe itself is the host
 * store's (src/store/fs/proc.ts).
 */
import type { ProcessIdentity } from '../protocol/command.js';

/**
 * What the OS says about a pid (the host store's `probeProcess`):
 * - `running`: it exists and has not exited; `startTime` is field 22 of its stat line (clock ticks
 *   after boot: equal values mean the same process), `pgid` field 5 (its process group);
 * - `exited`: no such process, or a zombie (exited, not yet reaped by its parent: it can no longer
 *   run, and signals to it do nothing);
 * - `unknown`: `/proc` cannot be read here (not Linux, no `/proc`, or a `/proc` that hides the
 *   process from us).
 */
export type ProcessProbe = { kind: 'running'; startTime: number; pgid: number } | { kind: 'exited' } | { kind: 'unknown' };

/**
 * What became of a recorded process:
 * - `alive`: it runs, with the recorded start time;
 * - `dead`: no process has its pid (or only a zombie: it exited and awaits reaping);
 * - `reused`: its pid belongs to a process with another start time;
 * - `unverified`: a process has its pid, but no start time was recorded or can be read.
 */
export type Liveness = 'alive' | 'dead' | 'reused' | 'unverified';

/** Judges a recorded identity against a probe of its pid. */
export function judgeProcess(id: ProcessIdentity, probe: ProcessProbe): Liveness {
  if (probe.kind === 'exited') return 'dead';
  if (probe.kind === 'unknown' || id.startTime === undefined) return 'unverified';
  return probe.startTime === id.startTime ? 'alive' : 'reused';
}
