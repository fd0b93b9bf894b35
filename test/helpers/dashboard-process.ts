/** `mailroom dashboard` as a real subprocess of the built CLI: started, its URL read from its JSON line, stopped with SIGTERM. */
import { spawn, type ChildProcess } from 'node:child_process';
import { BIN } from './cli.js';
import { cleanEnv } from './store-files.js';

/** A running dashboard process. */
export interface DashboardProcess {
  url: string;
  port: number;
  proc: ChildProcess;
  stop(): Promise<void>;
}

/** Starts `mailroom --root <root> dashboard <args> --json` and waits for its URL (rejects with its stderr if it exits first). */
export function startDashboardProcess(root: string, args: readonly string[]): Promise<DashboardProcess> {
  const proc = spawn(process.execPath, [BIN, '--root', root, 'dashboard', ...args, '--json'], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`mailroom dashboard exited ${String(code)} before serving: ${stderr}`)));
    let out = '';
    const onData = (c: Buffer) => {
      out += c.toString();
      let parsed: { url: string; port: number };
      try {
        parsed = JSON.parse(out) as { url: string; port: number };
      } catch {
        return; // the JSON object is not complete yet
      }
      proc.stdout!.off('data', onData);
      const { url, port } = parsed;
      resolve({
        url,
        port,
        proc,
        stop: () =>
          new Promise<void>((done) => {
            if (proc.exitCode !== null) return done();
            proc.once('exit', () => done());
            proc.kill('SIGTERM');
          }),
      });
    };
    proc.stdout!.on('data', onData);
  });
}
