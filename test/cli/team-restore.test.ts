/**
 * Issue 9 item 3, store part: `team delete` moved only the journal and archive aside and deleted
 * config, inboxes and tasks outright. Now everything moves to `<root>/mailroom/deleted/`, the
 * command says where, and `team restore` brings the team back with its messages, tasks and history;
 * a name in use again is refused.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { mailroom, mailroomOk } from '../helpers/store-files.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir();
  await mailroomOk(dir.path, 'team', 'create', 'demo');
  await mailroomOk(dir.path, 'team', 'spawn', 'alice');
  await mailroomOk(dir.path, 'team', 'send', 'alice', 'keep this');
  await mailroomOk(dir.path, 'task', 'add', 'Keep this task');
});
afterEach(() => dir.cleanup());

describe('team delete and team restore', () => {
  it('moves the team aside, says where, and brings it back whole', async () => {
    const deleted = await mailroomOk(dir.path, 'team', 'delete', 'demo');
    expect(deleted.stdout).toMatch(/Deleted team demo: config, inboxes, tasks and journal moved to .*mailroom\/deleted\/demo-.*; `mailroom team restore demo` brings it back/);
    expect((await mailroom(dir.path, 'task', 'list', '--team', 'demo')).code).toBe(3);
    const listed = JSON.parse((await mailroomOk(dir.path, 'team', 'restore', '--list', '--json')).stdout) as Array<{ team: string; id: string }>;
    expect(listed).toMatchObject([{ team: 'demo' }]);

    const restored = await mailroomOk(dir.path, 'team', 'restore', 'demo');
    expect(restored.stdout).toContain('Restored team demo (2 members)');
    expect((await mailroomOk(dir.path, 'inbox', 'alice', '--team', 'demo')).stdout).toContain('keep this');
    expect((await mailroomOk(dir.path, 'task', 'list', '--team', 'demo')).stdout).toContain('Keep this task');
    const log = (await mailroomOk(dir.path, 'log', 'demo', '--no-record')).stdout;
    expect(log).toContain('keep this');
    expect(JSON.parse((await mailroomOk(dir.path, 'team', 'restore', '--list', '--json')).stdout)).toEqual([]);
  });

  it('refuses to restore over a team of the same name (TEAM_EXISTS), and an unknown name (TEAM_NOT_FOUND)', async () => {
    await mailroomOk(dir.path, 'team', 'delete', 'demo');
    await mailroomOk(dir.path, 'team', 'create', 'demo');
    const clash = await mailroom(dir.path, 'team', 'restore', 'demo');
    expect(clash.code).toBe(4);
    expect(clash.stderr).toContain('TEAM_EXISTS');
    const unknown = await mailroom(dir.path, 'team', 'restore', 'nothing-here');
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('TEAM_NOT_FOUND');
  });
});
