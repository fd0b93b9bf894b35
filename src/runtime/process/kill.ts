/**
 * Signalling teammate processes. A process-backend teammate leads its own process group
 * (it is started detached), so signals go to the group: its model and task commands die with it.
 */

/** True when a process with this pid exists (and we may signal it). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Sends `signal` to the process group led by `pid` (falls back to the pid alone). Pid 1 gets it
 * alone: `kill(-1)` would signal every process this user may signal.
 */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  if (pid > 1 && trySignal(-pid, signal)) return;
  trySignal(pid, signal);
}

/** `kill(target, signal)`; false when it failed (no such process or group, no permission). */
function trySignal(target: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(target, signal);
    return true;
  } catch {
    return false;
  }
}

/** Resolves true once `pid` is gone, false after `timeoutMs`. */
export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

/** SIGTERM to the group, then SIGKILL after `graceMs`. @returns true when a live process was signalled */
export async function terminate(pid: number, graceMs = 2_000): Promise<boolean> {
  if (!isAlive(pid)) return false;
  signalGroup(pid, 'SIGTERM');
  if (!(await waitForExit(pid, graceMs))) {
    signalGroup(pid, 'SIGKILL');
    await waitForExit(pid, 1_000);
  }
  return true;
}
