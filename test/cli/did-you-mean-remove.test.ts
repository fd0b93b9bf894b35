/**
 * "Did you mean" for removing a member (trial 2, item 4): `team remove|rm|kick <name>` suggests
 * `team stop` (the member leaves the roster), never `team delete`, which deletes the whole team.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { mailroom, mailroomOk } from '../helpers/store-files.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir();
  await mailroomOk(dir.path, 'team', 'create', 'demo');
  await mailroomOk(dir.path, 'team', 'spawn', 'dave');
});
afterEach(async () => {
  await dir.cleanup();
});

it.each([['team', 'remove'], ['team', 'rm'], ['team', 'kick'], ['remove'], ['rm'], ['kick']])('%s %s dave suggests team stop, not team delete', async (...words) => {
  const r = await mailroom(dir.path, ...words.filter((w) => w !== undefined), 'dave');
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/Did you mean `mailroom .*team stop`\?/);
  expect(r.stderr).not.toMatch(/Did you mean `[^`]*team delete/);
  expect((await mailroomOk(dir.path, 'team', 'show')).stdout).toContain('dave');
});

it('task rm still suggests task delete', async () => {
  const r = await mailroom(dir.path, 'task', 'rm', '1');
  expect(r.stderr).toMatch(/Did you mean `mailroom .*task delete`\?/);
});
