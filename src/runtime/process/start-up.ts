/**
 * Whether a just-started `mailroom agent` process got going: it logs `<name>: started (pid N, …)`
 * once it has claimed its pid record and created its model (runtime/process/agent.ts). Until then
 * it can still die of its own start-up — an unknown model, a missing script file, no API key — and
 * its starter reports that instead of a process that is already gone.
 */
import type { ChildProcess } from 'node:child_process';
import { MailroomError, isErrorCode } from '../../errors.js';
import type { HostStore } from '../../store/host-store.js';

/** Default bound of the wait for the `started` line, ms. */
export const START_UP_TIMEOUT_MS = 10_000;
/** Re-read period of the log while waiting, ms. */
const POLL_MS = 50;
/** Log lines quoted when the process exited. */
const TAIL_LINES = 8;

/** Where to look: the child's log from byte `from`, for the line of process `pid`. */
export interface StartUpWatch {
  /** This machine's records (the child's log). */
  store: HostStore;
  team: string;
  name: string;
  /** The child's pid, as its `started` line names it. */
  pid: number;
  /** The log's path, quoted in the error. */
  logFile: string;
  /** Byte offset in the log where the child began writing (the log's size when it was opened). */
  from: number;
  /** Bound of the wait (ms; default {@link START_UP_TIMEOUT_MS}). */
  timeoutMs?: number;
}

/**
 * Resolves `started` when the log has the child's `started` line (even if it exited after), or
 * `running` when it still runs after `timeoutMs` without one (start-up is slow: it is left to run).
 * @throws the child's own error code (from its `mailroom: CODE: message` line, INTERNAL without
 * one) when it exited without starting, quoting the log's last lines
 */
export async function awaitStartUp(child: ChildProcess, w: StartUpWatch): Promise<'started' | 'running'> {
  const exited = exitOf(child);
  const deadline = Date.now() + (w.timeoutMs ?? START_UP_TIMEOUT_MS);
  for (;;) {
    const status = await Promise.race([exited.promise, sleep(POLL_MS).then(() => undefined)]);
    const text = await w.store.readAgentLog(w.team, w.name, { from: w.from });
    if (text.includes(`${w.name}: started (pid ${w.pid},`)) return 'started';
    if (status !== undefined) throw startFailed(w, status, text);
    if (Date.now() >= deadline) return 'running';
  }
}

function startFailed(w: StartUpWatch, status: string, text: string): MailroomError {
  const lines = text.trimEnd().split('\n').filter((l) => l !== '');
  const tail = lines.slice(-TAIL_LINES).join('\n');
  const code = [...text.matchAll(/^mailroom: ([A-Z_]+): /gm)].map((m) => m[1]!).filter(isErrorCode).at(-1) ?? 'INTERNAL';
  const quoted = tail === '' ? `it wrote nothing to ${w.logFile}` : `last lines of ${w.logFile}:\n${tail}`;
  return new MailroomError(code, `${w.name} exited as it started (process ${w.pid}, ${status}); ${quoted}`, { details: { name: w.name, pid: w.pid, logFile: w.logFile } });
}

function exitOf(child: ChildProcess): { promise: Promise<string> } {
  const promise = new Promise<string>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(describe(child.exitCode, child.signalCode));
    else child.once('exit', (code, signal) => resolve(describe(code, signal)));
  });
  return { promise };
}

function describe(code: number | null, signal: NodeJS.Signals | null): string {
  return signal !== null ? `killed by ${signal}` : `exit code ${code ?? 'unknown'}`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
