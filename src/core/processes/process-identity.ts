/**
 * Telling a recorded process from whatever has its pid now. A pid is reused by the kernel once its
 * process is gone, so a record keeps the pid *and* the start time (`/proc/<pid>/stat` field 22, read
 * by the host store's `probeProcess`): the same pid with another start time is another process. Where the start
 * time cannot be read (not Linux), a live pid is `unverified`, and nothing unverified is ever
 * signalled by a reaper.
 */
import { judgeProcess, type Liveness } from '../../domain/processes.js';
import type { ProcessIdentity } from '../../protocol/command.js';
import type { HostStore } from '../../store/host-store.js';

export type { ProcessIdentity } from '../../protocol/command.js';
export type { Liveness } from '../../domain/processes.js';

/** What these helpers need of the host store: this machine's process probe. */
export type ProcessProber = Pick<HostStore, 'probeProcess'>;

/** The identity of a running process, or undefined when it has exited. */
export async function identify(host: ProcessProber, pid: number): Promise<ProcessIdentity | undefined> {
  const probe = await host.probeProcess(pid);
  if (probe.kind === 'exited') return undefined;
  return probe.kind === 'running' ? { pid, startTime: probe.startTime } : { pid };
}

let own: Promise<ProcessIdentity> | undefined;

/** This process's identity (read once). */
export function ownIdentity(host: ProcessProber): Promise<ProcessIdentity> {
  own ??= identify(host, process.pid).then((id) => id ?? { pid: process.pid });
  return own;
}

/** Compares a recorded identity with the process that has its pid now. Never throws. */
export async function livenessOf(host: ProcessProber, id: ProcessIdentity): Promise<Liveness> {
  return judgeProcess(id, await host.probeProcess(id.pid));
}

/** True when the recorded process may still run (`alive` or `unverified`): a record to respect. */
export async function mayBeRunning(host: ProcessProber, id: ProcessIdentity): Promise<boolean> {
  const state = await livenessOf(host, id);
  return state === 'alive' || state === 'unverified';
}

/**
 * Resolves true once the recorded process is gone (`dead` or `reused`; a zombie counts as gone),
 * false after `timeoutMs`. Polls every 25 ms.
 */
export async function waitUntilGone(host: ProcessProber, id: ProcessIdentity, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!(await mayBeRunning(host, id))) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
}
