/**
 * The long-running verbs (`watch`, `watch --json`, `log --follow`, `dashboard`) are told to stop (SIGTERM) the
 * moment their first line reaches the reader — the worst moment, before any other work — and exit
 * 0 with nothing on stderr, never killed by the signal (CI saw `watch --json` end by SIGTERM when
 * the signal came between its ready line and its stop handler).
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { REFERENCE_2_1_109, cleanEnv, copyTree } from '../helpers/store-files.js';
import type { TempDir } from '../helpers/temp-dir.js';

/** Runs the verb, sends SIGTERM from the handler of its first stdout chunk; resolves its exit. */
function stopAtFirstLine(args: string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.once('data', () => child.kill('SIGTERM'));
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stderr })));
}

describe('a long-running verb stopped at its first line', () => {
  let dir: TempDir;
  beforeAll(async () => (dir = await copyTree(`${REFERENCE_2_1_109}/3-teammate-idle`)));
  afterAll(async () => dir.cleanup());

  for (const verb of [['watch', 'compat'], ['watch', 'compat', '--json'], ['log', '--team', 'compat', '--follow'], ['dashboard', 'compat']]) {
    it(`${verb.join(' ')} exits 0, not by the signal (8 tries)`, async () => {
      const runs = await Promise.all(Array.from({ length: 8 }, () => stopAtFirstLine(['--root', dir.path, ...verb])));
      expect(runs).toEqual(Array.from({ length: 8 }, () => ({ code: 0, signal: null, stderr: '' })));
    }, 60_000);
  }
});
