/**
 * Case 08 (../shared/cases/08-blocked-by.md): task 2 is created with `--blocked-by 1`.
 * Expected: moving 2 to in_progress or completed while 1 is open is refused (TASK_BLOCKED, naming
 * task 1); claiming 2 is refused with reason `blocked`; once 1 is completed, 2 is listed as ready.
 * Task 1's file lists 2 in `blocks`. `--blocked-by 99` is refused; making 1 blocked by 2 (a cycle)
 * is refused, naming the cycle. Deleting task 1 removes it from 2's `blockedBy`.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { listFiles, mailroom, mailroomOk, readJson, snapshotBytes } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let tmp: TempDir;
let root: string;
const task = (id: string) => readJson<{ status: string; owner?: string; blocks: string[]; blockedBy: string[] }>(join(root, `tasks/t/${id}.json`));
const readyIds = async () => (JSON.parse((await mailroomOk(root, 'task', 'list', '--ready', '--json')).stdout) as { task: { id: string } }[]).map((v) => v.task.id);

beforeAll(async () => {
  tmp = await makeTempDir('mailroom-case08-');
  root = tmp.path;
  await mailroomOk(root, 'team', 'create', 't');
  await mailroomOk(root, 'team', 'spawn', 'alice');
  await mailroomOk(root, 'task', 'add', 'Collect data');
  await mailroomOk(root, 'task', 'add', 'Summarise data', '--blocked-by', '1');
});
afterAll(() => tmp.cleanup());

it('links both tasks: 1 blocks 2, 2 is blocked by 1', async () => {
  expect(await task('1')).toMatchObject({ blocks: ['2'], blockedBy: [] });
  expect(await task('2')).toMatchObject({ blocks: [], blockedBy: ['1'] });
  expect(await readyIds()).toEqual(['1']);
});

it.each(['in_progress', 'completed'])('refuses moving 2 to %s while 1 is open, naming task 1', async (status) => {
  const before = await snapshotBytes(root);
  const run = await mailroom(root, 'task', 'update', '2', '--status', status);
  expect(run.code).toBe(5);
  expect(run.stderr).toContain('TASK_BLOCKED');
  expect(run.stderr).toContain('#1');
  expect(await snapshotBytes(root)).toEqual(before);
});

it('refuses claiming 2 with reason blocked', async () => {
  const run = await mailroom(root, 'task', 'claim', '2', '--as', 'alice', '--json');
  expect(run.code).toBe(5);
  const { error } = JSON.parse(run.stderr) as { error: { code: string; details: { reason: string; blockedBy: string[] } } };
  expect(error).toMatchObject({ code: 'TASK_BLOCKED', details: { reason: 'blocked', blockedBy: ['1'] } });
  expect(await task('2')).not.toHaveProperty('owner');
});

it('refuses a dependency on a task that does not exist, creating nothing', async () => {
  const run = await mailroom(root, 'task', 'add', 'Orphan', '--blocked-by', '99');
  expect(run.code).toBe(3);
  expect(run.stderr).toContain('TASK_NOT_FOUND');
  expect(run.stderr).toContain('#99');
  const upd = await mailroom(root, 'task', 'update', '2', '--add-blocked-by', '99');
  expect(upd.code).toBe(3);
  expect(await listFiles(join(root, 'tasks/t'))).toEqual(['.lock', '1.json', '2.json']);
});

it('refuses making 1 blocked by 2, naming the cycle, and changes nothing', async () => {
  const before = await snapshotBytes(root);
  const run = await mailroom(root, 'task', 'update', '1', '--add-blocked-by', '2');
  expect(run.code).toBe(5);
  expect(run.stderr).toContain('TASK_CYCLE');
  expect(run.stderr).toContain('#1 → #2 → #1');
  expect(await snapshotBytes(root)).toEqual(before);
  const viaBlocks = await mailroom(root, 'task', 'update', '2', '--add-blocks', '1');
  expect(viaBlocks.code).toBe(5);
  expect(await snapshotBytes(root)).toEqual(before);
});

it('lists 2 as ready once 1 is completed, and then lets it start', async () => {
  await mailroomOk(root, 'task', 'update', '1', '--status', 'completed');
  expect(await readyIds()).toEqual(['2']);
  await mailroomOk(root, 'task', 'update', '2', '--status', 'in_progress', '--as', 'alice');
  expect(await task('2')).toMatchObject({ status: 'in_progress', owner: 'alice', blockedBy: ['1'] });
});

it('deleting task 1 removes it from 2’s blockedBy', async () => {
  await mailroomOk(root, 'task', 'delete', '1');
  expect(await task('2')).toMatchObject({ blockedBy: [], blocks: [] });
});
