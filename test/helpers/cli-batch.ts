/**
 * Runs a list of `mailroom` commands in one subprocess (see cli-batch.mjs): each command goes
 * through the CLI's real entry, `main()`, with its own exit code and output.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { CliRun } from './cli.js';
import { cleanEnv } from './store-files.js';

const SCRIPT = fileURLToPath(new URL('./cli-batch.mjs', import.meta.url));

/** Options of {@link runCliBatch}. */
export interface BatchOptions {
  /** Synchronise with other batches: before command i, wait until `parties` processes reached it. */
  barrier?: { dir: string; parties: number };
}

/** Runs `commands` (argv arrays, without `mailroom`) one after another in a single process. */
export function runCliBatch(commands: readonly (readonly string[])[], options: BatchOptions = {}): Promise<CliRun[]> {
  const input = JSON.stringify({ commands, barrier: options.barrier });
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [SCRIPT, input], { env: cleanEnv(), maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`cli-batch failed (${err.message}): ${stderr}`));
      else resolve(JSON.parse(stdout) as CliRun[]);
    });
  });
}
