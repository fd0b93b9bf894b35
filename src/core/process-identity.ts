/**
 * Telling a recorded process from whatever has its pid now. A pid is reused by the kernel once its
 * process is gone, so a record keeps the pid *and* the start time (`/proc/<pid>/stat` field 22, read
 * by src/store/fs/proc.ts): the same pid with another start time is another process. Where the start
 * time cannot be read (not Linux), a live pid is `unverified`, and nothing unverified is ever
 * signalled by a reaper.
 */
import { judgeProcess, type Liveness } from '../domain/processes.js';
import type { ProcessIdentity } from '../protocol/command.js';
import { probeProcess } from '../store/fs/proc.js';

export type { ProcessIdentity } from '../protocol/command.js';
export type { Liveness } from '../domain/processes.js';

/** The identity of a running process, or undefined when it has exited. */
export async function identify(pid: number): Promise<ProcessIdentity | undefined> {
  const probe = await probeProcess(pid);
  if (probe.kind === 'exited') return undefined;
  return probe.kind === 'running' ? { pid, startTime: probe.startTime } : { pid };
}

let own: Promise<ProcessIdentity> | undefined;

/** This process's identity (read once). */
export function ownIdentity(): Promise<ProcessIdentity> {
  own ??= identify(process.pid).then((id) => id ?? { pid: process.pid });
  return own;
}

/** Compares a recorded identity with the process that has its pid now. Never throws. */
export async function livenessOf(id: ProcessIdentity): Promise<Liveness> {
  return judgeProcess(id, await probeProcess(id.pid));
}

/** True when the recorded process may still run (`alive` or `unverified`): a record to respect. */
export async function mayBeRunning(id: ProcessIdentity): Promise<boolean> {
  const state = await livenessOf(id);
  return state === 'alive' || state === 'unverified';
}

/**
 * Resolves true once the recorded process is gone (`dead` or `reused`; a zombie counts as gone),
 * false after `timeoutMs`. Polls every 25 ms.
 */
export async function waitUntilGone(id: ProcessIdentity, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!(await mayBeRunning(id))) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
}
