/**
 * Looking at real processes in tests: whether a pid still runs (a zombie — exited, not yet reaped
 * by its parent — does not), the pid a shell command wrote to a file, and cleaning up what a test
 * started.
 */
import { readFile } from 'node:fs/promises';
import { probeProcess } from '../../src/store/fs/proc.js';
import { until } from './runtime.js';

/** True when `pid` exists and has not exited (a zombie counts as exited). Linux only. */
export async function isRunning(pid: number): Promise<boolean> {
  return (await probeProcess(pid)).kind === 'running';
}

/** Waits until `path` holds a pid (a shell's `echo $$ > file`) and returns it. */
export function pidFrom(path: string, timeoutMs = 15_000): Promise<number> {
  return until(async () => {
    const n = Number((await readFile(path, 'utf8').catch(() => '')).trim());
    return Number.isInteger(n) && n > 0 ? n : undefined;
  }, timeoutMs, `a pid in ${path}`);
}

/** SIGKILLs every pid in `pids` that still runs (cleanup after a failed assertion); empties the list. */
export async function killLeftovers(pids: number[]): Promise<void> {
  for (const pid of pids.splice(0)) {
    if (!(await isRunning(pid))) continue;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // ended meanwhile
    }
  }
}
