/**
 * `team stop --all` (new-user trial): `--all` is an option of `inbox`, `requests` and `dead-letter
 * retry`, so a user who wants every teammate stopped types it here. The refusal said "Did you mean
 * --allow-volatile?" — a global flag about Redis warnings that begins with the same letters and
 * has nothing to do with stopping. It now says team stop takes one teammate, how to stop each, and
 * which command stops them all; nothing is stopped.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { mailroom, mailroomOk, snapshotBytes } from '../helpers/store-files.js';

let dir: TempDir;
beforeAll(async () => {
  dir = await makeTempDir();
  await mailroomOk(dir.path, 'team', 'create', 'demo');
  await mailroomOk(dir.path, 'team', 'spawn', 'alice');
});
afterAll(() => dir.cleanup());

it.each([[['team', 'stop', '--all']], [['team', 'stop', 'alice', '--all']], [['team', 'stop', '--all', '--force']]])('%j: USAGE naming one teammate per stop and team delete --force, not --allow-volatile', async (args) => {
  const before = await snapshotBytes(dir.path);
  const run = await mailroom(dir.path, ...args);
  expect(run.code, run.stderr).toBe(2);
  expect(run.stderr).toMatch(/^mailroom: USAGE: /);
  expect(run.stderr).not.toContain('allow-volatile');
  expect(run.stderr).not.toContain('A text that begins with');
  expect(run.stderr).toContain('unknown option --all: team stop stops one teammate');
  expect(run.stderr).toMatch(/`mailroom (--root \S+ )?team stop <name>`/);
  expect(run.stderr).toMatch(/`mailroom (--root \S+ )?team delete <team> --force`/);
  expect(await snapshotBytes(dir.path)).toEqual(before);
});

it('a near option is still suggested as before (--forc → --force)', async () => {
  const run = await mailroom(dir.path, 'team', 'stop', 'alice', '--forc');
  expect(run.stderr).toContain('unknown option --forc. Did you mean --force?');
});
