/**
 * Fencing tokens on the files store against hand edits and clocks (docs/runtime.md "Fencing
 * tokens", docs/format.md §8): a task file whose `fencingToken` a person or a Claude Code write set
 * to anything, then a claim with the real CLI binary — the claim issues a safe integer its owner's
 * fenced write passes with and the forged value does not; and a token issued while the clock ran
 * ten years ahead, then a claim on this clock: tokens still grow, the earlier holder is fenced off. The Redis twin: test/redis/fencing-forged.test.ts.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openFsStores } from '../../src/store/open.js';
import type { MailroomError } from '../../src/errors.js';
import { runCli } from '../helpers/cli.js';
import { cleanEnv } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let dir: TempDir;
const team = 'demo';
const cli = (args: string[], env = cleanEnv()) => runCli(['--root', dir.path, '--team', team, ...args], env);
const taskFile = () => join(dir.path, 'tasks', team, '1.json');
beforeEach(async () => {
  dir = await makeTempDir();
  for (const args of [['team', 'create', team], ['team', 'spawn', 'alice'], ['task', 'add', 'Build']]) expect((await cli(args)).code).toBe(0);
});
afterEach(async () => dir.cleanup());

/** Claims #1 as alice with the CLI: @returns the token it issued (also the one in the file). */
async function claim(env = cleanEnv()): Promise<number> {
  const run = await cli(['task', 'claim', '1', '--as', 'alice', '--json'], env);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const token = (JSON.parse(run.stdout) as { fencingToken: unknown }).fencingToken as number;
  expect((JSON.parse(await readFile(taskFile(), 'utf8')) as { fencingToken: unknown }).fencingToken).toBe(token);
  return token;
}

/** A fenced write by alice's runtime carrying `token` (the library the runtime calls): undefined when it went through. */
async function fencedWrite(token: number, exitCode: number): Promise<MailroomError | undefined> {
  return openFsStores(dir.path)
    .team.patchTask(team, '1', { metadata: { exitCode }, fencingToken: token }, { actor: 'alice' })
    .then(() => undefined, (e: MailroomError) => e);
}

describe('a fencing token written into a task file by hand', () => {
  const forged = ['9007199254740991', '9007199254740993', '123456789012345', '1e20', '-5', '1.5', '"12"', 'null'];
  for (const value of forged) {
    it(`${value}: shown and claimed without error; the claim's token is a safe integer its owner writes with`, async () => {
      await claim();
      const doc = (await readFile(taskFile(), 'utf8')).replace(/"fencingToken": [0-9]+/, `"fencingToken": ${value}`);
      expect(doc).toContain(`"fencingToken": ${value}`);
      await writeFile(taskFile(), doc);
      const shown = await cli(['task', 'show', '1', '--json']);
      expect([shown.code, shown.stderr]).toEqual([0, '']);

      const token = await claim();
      expect(Number.isSafeInteger(token) && token > 0).toBe(true);
      const stale = Number(JSON.parse(value));
      if (Number.isSafeInteger(stale) && stale !== token) expect((await fencedWrite(stale, 1))?.code).toBe('TASK_FENCED');
      expect(await fencedWrite(token, 0)).toBeUndefined();
      const next = await claim();
      expect(next).not.toBe(token);
      expect((await fencedWrite(token, 2))?.code).toBe('TASK_FENCED');
      expect(await fencedWrite(next, 3)).toBeUndefined();
    }, 60_000);
  }
});

describe('a token issued while the clock ran ten years ahead (the clock set back since), then a claim on this clock', () => {
  // The ahead claim is left in the file as it would have written it: a CLI process whose Date.now alone
  // is shifted cannot claim (its own task lock looks stale to it by the file's real mtime: LOCK_COMPROMISED),
  // and the files store lives on one machine (docs/leases.md), so one clock, set back.
  it('tokens still grow (previous + 1), the ahead holder is fenced off and the new one writes', async () => {
    const TEN_YEARS = 10 * 365 * 86_400_000;
    await claim();
    const future = Date.now() + TEN_YEARS;
    await writeFile(taskFile(), (await readFile(taskFile(), 'utf8')).replace(/"fencingToken": [0-9]+/, `"fencingToken": ${future}`));
    const now = await claim();
    expect(now).toBe(future + 1);
    expect((await fencedWrite(future, 1))?.code).toBe('TASK_FENCED');
    expect(await fencedWrite(now, 0)).toBeUndefined();
  }, 60_000);
});
