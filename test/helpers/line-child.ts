/**
 * A long-running CLI subprocess (`mailroom watch`, `mailroom log --follow`) with its stdout
 * collected as lines, for tests that act on the team and wait for the lines it prints.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { BIN } from './cli.js';

/** A running CLI process. */
export interface LineChild {
  proc: ChildProcess;
  lines(): string[];
  stderr(): string;
  /** Resolves with the first line (from index `from`) that `test` accepts; rejects on exit or after `ms`. */
  waitForLine(test: (line: string) => boolean, from?: number, ms?: number): Promise<string>;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
  exited: Promise<number | null>;
}

/** Starts `node bin/mailroom.js <args>` with stdin, stdout and stderr as pipes (no terminal). */
export function startCli(args: readonly string[], env: NodeJS.ProcessEnv): LineChild {
  const proc = spawn(process.execPath, [BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on('close', (code) => resolve(code)));
  let done = false;
  void exited.then(() => (done = true));
  const lines = () => out.split('\n').slice(0, -1);
  return {
    proc,
    lines,
    stderr: () => err,
    exited,
    waitForLine: async (test, from = 0, ms = 10_000) => {
      const until = Date.now() + ms;
      for (;;) {
        const hit = lines().slice(from).find(test);
        if (hit !== undefined) return hit;
        if (done) throw new Error(`process exited before the line appeared; stdout:\n${out}\nstderr:\n${err}`);
        if (Date.now() > until) throw new Error(`line never appeared; stdout:\n${out}\nstderr:\n${err}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    stop: async () => {
      if (!done) proc.kill('SIGTERM');
      return exited;
    },
  };
}
