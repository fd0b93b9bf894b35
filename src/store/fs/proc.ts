/**
 * What the operating system says about a process, read from Linux's `/proc/<pid>/stat` (proc(5)).
 * mailroom records the start time of the processes it may later signal, so a pid the kernel has
 * given to another process since is never mistaken for the recorded one. It lives in `src/store/fs/`
 * because the store is the only layer that reads files (others reach it as `HostStore.probeProcess`);
 * it reads, never writes.
 */
import { readFile } from 'node:fs/promises';
import type { ProcessProbe } from '../../domain/processes.js';

export type { ProcessProbe } from '../../domain/processes.js';

/** Reads `/proc/<pid>/stat`. Never throws. */
export async function probeProcess(pid: number): Promise<ProcessProbe> {
  if (!Number.isInteger(pid) || pid <= 0) return { kind: 'exited' };
  try {
    const stat = parseProcStat(await readFile(`/proc/${pid}/stat`, 'utf8'));
    if (!stat) return { kind: 'unknown' };
    return stat.state === 'Z' || stat.state === 'X' ? { kind: 'exited' } : { kind: 'running', startTime: stat.startTime, pgid: stat.pgid };
  } catch {
    // No stat file: gone, unless there is no /proc here or it hides the process (hidepid).
    return exists(pid) ? { kind: 'unknown' } : { kind: 'exited' };
  }
}

/** `kill(pid, 0)`: true when the process exists (EPERM: it does, and belongs to someone else). */
function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The fields of a stat line mailroom uses. */
export interface ProcStat {
  /** Field 3: `R`, `S`, `D`, `Z` (zombie), `X` (dead), … */
  state: string;
  /** Field 5: process group id. */
  pgid: number;
  /** Field 22: start time, clock ticks after boot. */
  startTime: number;
}

/**
 * Parses one `/proc/<pid>/stat` line, or undefined when it is not one. Field 2 (the command name,
 * in parentheses) may itself hold spaces and parentheses, so fields are counted after its last `)`.
 */
export function parseProcStat(line: string): ProcStat | undefined {
  const close = line.lastIndexOf(')');
  if (close < 0) return undefined;
  const fields = line.slice(close + 1).trim().split(/\s+/); // fields[0] is field 3
  const pgid = Number(fields[2]);
  const startTime = Number(fields[19]);
  if (!fields[0] || !Number.isSafeInteger(pgid) || !Number.isSafeInteger(startTime)) return undefined;
  return { state: fields[0], pgid, startTime };
}
