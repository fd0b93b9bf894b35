/**
 * Running an external command for a teammate: a task's `metadata.command` (worker) or the program
 * behind a `command:` model. The command runs through `sh -c` in its own process group, so a
 * timeout or an abort kills it together with its children. The command ends when its shell exits:
 * whatever it left running in its group (`server &`) gets SIGTERM, then SIGKILL after
 * {@link LEFTOVER_GRACE_MS} — left alone, it would hold the output pipes open until the timeout and
 * outlive the task. Output is capped (the tail is kept).
 */
import { spawn } from 'node:child_process';
import { groupHasMembers } from '../core/processes/process-group.js';

/** Time a command's leftover background processes get between SIGTERM and SIGKILL (ms). */
export const LEFTOVER_GRACE_MS = 2_000;

/** Longest stdout/stderr kept per stream (characters); earlier output is dropped. */
export const OUTPUT_CAP = 1_000_000;

/** Input of {@link runShell}. */
export interface ShellOptions {
  /** Shell command line, run with `sh -c`. */
  command: string;
  cwd: string;
  /** Extra environment variables (added to this process's environment). */
  env?: Readonly<Record<string, string>>;
  /** Text written to the command's stdin (stdin is empty otherwise). */
  stdin?: string;
  /** Kill the command after this many ms. */
  timeoutMs: number;
  /** Kills the command when it fires. */
  signal: AbortSignal;
  /** Called once the command has started, with the pid of its `sh` (which leads its process group). */
  onSpawn?: (pid: number) => void;
}

/** What a command did. */
export interface ShellResult {
  /** Exit code; `null` when killed by a signal or when it could not start. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  timedOut: boolean;
  /** True when `signal` aborted the command. */
  aborted: boolean;
  /** Why the command could not start (e.g. cwd missing). */
  spawnError?: string;
}

/** Runs `options.command` and resolves when it exits (never rejects). */
export function runShell(options: ShellOptions): Promise<ShellResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', options.command], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out = { stdout: '', stderr: '', timedOut: false, aborted: false, spawnError: undefined as string | undefined };
    const kill = () => killGroup(child.pid, 'SIGKILL');
    const timer = setTimeout(() => ((out.timedOut = true), kill()), options.timeoutMs);
    let leftovers: NodeJS.Timeout | undefined;
    child.once('exit', () => {
      // The shell is gone; what remains in its group is left over (the group id stays taken while it has members).
      killGroup(child.pid, 'SIGTERM');
      leftovers = setTimeout(kill, LEFTOVER_GRACE_MS);
    });
    const onAbort = () => ((out.aborted = true), kill());
    options.signal.addEventListener('abort', onAbort, { once: true });
    if (options.signal.aborted) onAbort();
    child.stdout.on('data', (d: Buffer) => (out.stdout = capTail(out.stdout + d.toString('utf8'))));
    child.stderr.on('data', (d: Buffer) => (out.stderr = capTail(out.stderr + d.toString('utf8'))));
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.stdin ?? '');
    child.on('error', (err) => (out.spawnError = err.message));
    child.once('spawn', () => child.pid !== undefined && options.onSpawn?.(child.pid));
    child.on('close', (code) => {
      clearTimeout(timer);
      // The pipes close as soon as the leftovers hold none (output redirected): keep the SIGKILL
      // pending while the group still has members, or one that ignores SIGTERM runs on.
      if (child.pid === undefined || !groupHasMembers(child.pid)) clearTimeout(leftovers);
      options.signal.removeEventListener('abort', onAbort);
      const { spawnError, ...rest } = out;
      resolve({ exitCode: code, ...rest, durationMs: Math.round(performance.now() - started), ...(spawnError ? { spawnError } : {}) });
    });
  });
}

/** The last `max` characters of `text`. */
export function capTail(text: string, max = OUTPUT_CAP): string {
  return text.length > max ? text.slice(text.length - max) : text;
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined || pid < 2) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}
