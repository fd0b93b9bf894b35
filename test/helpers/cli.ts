/**
 * Runs the real CLI binary (`node bin/mailroom.js …`, built by `npm run build`) in a subprocess.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Absolute path of bin/mailroom.js. */
export const BIN = fileURLToPath(new URL('../../bin/mailroom.js', import.meta.url));

/** Exit code and output of one CLI run. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `mailroom <args>`; never throws on a non-zero exit (check `code`). */
export function runCli(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env, maxBuffer: 256 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}
