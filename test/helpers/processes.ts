/**
 * Looking at real processes in tests: whether a pid still runs (a zombie — exited, not yet reaped
 * by its parent — does not), the pid a shell command wrote to a file, and cleaning up what a test
 * started.
 */
import { readFile } from 'node:fs/promises';
import { parseProcStat, probeProcess } from '../../src/store/fs/proc.js';
import { until } from './runtime.js';

/** True when `pid` exists and has not exited (a zombie counts as exited). Linux only. */
export async function isRunning(pid: number): Promise<boolean> {
  return (await probeProcess(pid)).kind === 'running';
}

/**
 * Waits until `pid` is stopped (state `T` in /proc/<pid>/stat), e.g. a process that printed
 * `mailroom-test: frozen …` (src/test-freeze.ts) and is about to SIGSTOP itself. The line comes
 * before the stop, so a test that sends SIGCONT as soon as it reads the line may resume a process
 * that has not stopped yet — and it then stops for good. Linux only. @throws after `timeoutMs`
 */
export function untilStopped(pid: number, timeoutMs = 15_000): Promise<true> {
  return until(async () => parseProcStat(await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => ''))?.state === 'T' || undefined, timeoutMs, `process ${pid} to stop`);
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
