/**
 * A result printed into a pipe whose reader has gone (`mailroom inbox --json | head -1`, or a
 * reader closed before the CLI wrote): the rest is dropped quietly, and the command's own exit
 * code stands. (It used to die of an unhandled EPIPE 'error' event: a stack trace, exit 1.)
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { cleanEnv, mailroomOk } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let tmp: TempDir;
beforeAll(async () => {
  tmp = await makeTempDir('mailroom-epipe-');
  await mailroomOk(tmp.path, 'team', 'create', 'demo');
  await mailroomOk(tmp.path, 'team', 'spawn', 'alice');
  await mailroomOk(tmp.path, 'team', 'send', 'alice', 'x'.repeat(2_000));
});
afterAll(() => tmp.cleanup());

/** Runs the CLI with its stdout a pipe this side closes at once (before the CLI has started). */
function withReaderGone(...args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [BIN, '--root', tmp.path, ...args], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

it.each([
  ['inbox (its own bundle)', ['inbox', 'alice', '--json']],
  ['task list (the full CLI)', ['task', 'list', '--json']],
  ['team send', ['team', 'send', 'alice', 'hi']],
])('%s: exits 0 with nothing on stderr', async (_name, args) => {
  const run = await withReaderGone(...args);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
});
