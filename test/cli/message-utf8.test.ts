/**
 * Invalid UTF-8 in a message (issue 23): bytes that are not UTF-8 — on the command line or on
 * stdin — are refused with MESSAGE_NOT_UTF8 (exit 2) and nothing is stored, instead of a message
 * silently changed to U+FFFD; a U+FFFD sent on purpose through stdin (its bytes EF BF BD) passes.
 * The bytes go through a shell (`printf`), since a JavaScript string cannot hold them.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BIN, type CliRun } from '../helpers/cli.js';
import { cleanEnv, mailroomOk } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let tmp: TempDir;
beforeAll(async () => {
  tmp = await makeTempDir('mailroom-utf8-');
  await mailroomOk(tmp.path, 'team', 'create', 'demo');
  await mailroomOk(tmp.path, 'team', 'spawn', 'alice');
});
afterAll(() => tmp.cleanup());

/** Runs `script` in sh with $M set to the CLI (with this test's root). */
function sh(script: string): Promise<CliRun> {
  return new Promise((resolve) => {
    const env = cleanEnv({ M: `"${process.execPath}" "${BIN}" --root "${tmp.path}"` });
    execFile('/bin/sh', ['-c', script], { env }, (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }));
  });
}

/** alice's inbox file as it is on disk ('' while it does not exist). */
const inbox = async () => readFile(join(tmp.path, 'teams', 'demo', 'inboxes', 'alice.json'), 'utf8').catch(() => '');

it('refuses a message argument whose bytes are not UTF-8, storing nothing', async () => {
  const before = await inbox();
  const run = await sh(`eval "$M team send alice \\"$(printf 'bad \\377\\376 byte')\\""`);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('MESSAGE_NOT_UTF8');
  expect(run.stderr).toContain('U+FFFD');
  expect(run.stderr).toContain('nothing was sent');
  const broadcast = await sh(`eval "$M team broadcast \\"$(printf 'x\\351y')\\""`);
  expect(broadcast.code).toBe(2);
  expect(broadcast.stderr).toContain('MESSAGE_NOT_UTF8');
  expect(await inbox()).toBe(before);
});

it('refuses stdin that is not UTF-8, naming the byte offset; a U+FFFD written as UTF-8 passes', async () => {
  const before = await inbox();
  const run = await sh(`printf 'caf\\351 au lait' | eval "$M team send alice -"`);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('MESSAGE_NOT_UTF8');
  expect(run.stderr).toContain('byte 3');
  expect(await inbox()).toBe(before);
  const ok = await sh(`printf 'on purpose: \\357\\277\\275' | eval "$M team send alice -"`);
  expect(ok.stderr).toBe('');
  expect(ok.code).toBe(0);
  expect(JSON.parse(await inbox()).at(-1).text).toBe('on purpose: \uFFFD');
});
