/**
 * Telling a recorded process from whatever has its pid now (pure): a pid is reused by the kernel
 * once its process is gone, so a record keeps the pid *and* the start time (`/proc/<pid>/stat`
 * field 22): the same pid with another start time is another process. The probe itself is the host
 * store's (src/store/proc.ts).
 */
import type { ProcessIdentity } from '../protocol/command.js';

/** What the OS said about a pid (the shape of the host store's probe). */
export type Probe = { kind: 'running'; startTime: number; pgid: number } | { kind: 'exited' } | { kind: 'unknown' };

/**
 * What became of a recorded process:
 * - `alive`: it runs, with the recorded start time;
 * - `dead`: no process has its pid (or only a zombie: it exited and awaits reaping);
 * - `reused`: its pid belongs to a process with another start time;
 * - `unverified`: a process has its pid, but no start time was recorded or can be read.
 */
export type Liveness = 'alive' | 'dead' | 'reused' | 'unverified';

/** Judges a recorded identity against a probe of its pid. */
export function judgeProcess(id: ProcessIdentity, probe: Probe): Liveness {
  if (probe.kind === 'exited') return 'dead';
  if (probe.kind === 'unknown' || id.startTime === undefined) return 'unverified';
  return probe.startTime === id.startTime ? 'alive' : 'reused';
}
