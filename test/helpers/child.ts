/**
 * Node child processes driven line by line over stdio, for multi-process tests (locks, torture).
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** A running child with its collected output. */
export interface Child {
  proc: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves when stdout contains `line` (as a whole line). Rejects if the child exits first. */
  waitForLine(line: string): Promise<void>;
  /** Writes `line` + newline to stdin. */
  send(line: string): void;
  /** Resolves with the exit code (or 128 + signal number style: -1 when killed by a signal). */
  exited: Promise<number>;
}

/** Starts `node <script> ...args`. */
export function startChild(script: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Child {
  const proc = spawn(process.execPath, [script, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const waiters: Array<() => void> = [];
  proc.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    for (const w of waiters.splice(0)) w();
  });
  proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number>((resolve) => proc.on('close', (code) => resolve(code ?? -1)));
  return {
    proc,
    stdout: () => out,
    stderr: () => err,
    send: (line) => proc.stdin.write(`${line}\n`),
    exited,
    waitForLine: (line) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (out.split('\n').includes(line)) return resolve();
          waiters.push(check);
        };
        void exited.then((code) => reject(new Error(`child exited (${code}) before printing "${line}"; stderr: ${err}`)));
        check();
      }),
  };
}
