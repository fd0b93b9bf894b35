/**
 * `--as` on `task add` and `task update` names who acts: it must be a member, as for `task claim`
 * and `team send --from`. A ghost actor was accepted, signed task assignments, and
 * `--status in_progress --as ghost` made the non-member the owner.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import { Layout } from '../../src/store/fs/paths.js';
import { mailroom, mailroomOk, readJson } from '../helpers/store-files.js';
import { makeTeam } from '../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let tmp: TempDir;
beforeEach(async () => {
  tmp = await makeTempDir('mailroom-task-as-');
  await makeTeam(tmp.path, 't', ['a']);
});
afterEach(() => tmp.cleanup());

describe('task add/update --as', () => {
  it('refuses a non-member with MEMBER_NOT_FOUND and changes nothing', async () => {
    const add = await mailroom(tmp.path, 'task', 'add', 'Write it', '--as', 'ghost');
    expect(add.code).toBe(3);
    expect(add.stderr).toMatch(/MEMBER_NOT_FOUND: No member named "ghost"/);
    const tasksDir = new Layout(tmp.path).taskDir('t');
    expect((await readdir(tasksDir)).filter((f) => f.endsWith('.json'))).toEqual([]);

    await mailroomOk(tmp.path, 'task', 'add', 'Write it', '--as', 'a');
    const before = await readJson(new Layout(tmp.path).taskPath('t', '1'));
    const update = await mailroom(tmp.path, 'task', 'update', '1', '--status', 'in_progress', '--as', 'ghost');
    expect(update.code).toBe(3);
    expect(await readJson(new Layout(tmp.path).taskPath('t', '1'))).toEqual(before);

    await mailroomOk(tmp.path, 'task', 'update', '1', '--status', 'in_progress', '--as', 'a');
    expect(await readJson(new Layout(tmp.path).taskPath('t', '1'))).toMatchObject({ status: 'in_progress', owner: 'a' });
  });
});
