/**
 * Case 07 (../shared/cases/07-task-id-collision.md): eight processes run `mailroom task add
 * "job <n>"` at once in team `t`.
 * Expected: eight files with eight distinct numeric ids, no file overwritten; ids continue after
 * the highest id ever used, also after deletions (ids are never reused, .highwatermark is kept).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCliBatch } from '../helpers/cli-batch.js';
import { mailroom, mailroomOk, readJson } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let tmp: TempDir;
let root: string;
beforeAll(async () => {
  tmp = await makeTempDir('mailroom-case07-');
  root = tmp.path;
  await mailroomOk(root, 'team', 'create', 't');
});
afterAll(() => tmp.cleanup());

const taskIds = async () =>
  (await readdir(join(root, 'tasks/t')))
    .filter((f) => /^\d+\.json$/.test(f))
    .map((f) => Number(f.slice(0, -5)))
    .sort((a, b) => a - b);
const highWatermark = () => readFile(join(root, 'tasks/t/.highwatermark'), 'utf8');

it('eight concurrent task add processes get eight distinct ids and eight intact files', async () => {
  const runs = await Promise.all(Array.from({ length: 8 }, (_, i) => mailroom(root, 'task', 'add', `job ${i + 1}`, '--json')));
  expect(runs.map((r) => r.code)).toEqual(Array(8).fill(0));
  const created = runs.map((r) => JSON.parse(r.stdout) as { id: string; subject: string });
  expect(new Set(created.map((t) => t.id)).size).toBe(8);
  expect(await taskIds()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  for (const t of created) {
    expect(await readJson(join(root, `tasks/t/${t.id}.json`))).toMatchObject({ id: t.id, subject: t.subject, status: 'pending' });
  }
  expect(created.map((t) => t.subject).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `job ${i + 1}`).sort());
});

it('ids continue after the highest ever used, across deletions, and .highwatermark is kept', async () => {
  await mailroomOk(root, 'task', 'delete', '8');
  expect(await highWatermark()).toBe('8');
  expect(JSON.parse((await mailroomOk(root, 'task', 'add', 'job 9', '--json')).stdout)).toMatchObject({ id: '9' });

  await mailroomOk(root, 'task', 'delete', '9');
  await mailroomOk(root, 'task', 'delete', '3');
  expect(await highWatermark()).toBe('9');
  expect(JSON.parse((await mailroomOk(root, 'task', 'add', 'job 10', '--json')).stdout)).toMatchObject({ id: '10' });

  const deletes = await runCliBatch((await taskIds()).map((id) => ['--root', root, 'task', 'delete', String(id)]));
  expect(deletes.map((r) => r.code)).toEqual(deletes.map(() => 0));
  expect(await taskIds()).toEqual([]);
  expect(await highWatermark()).toBe('10');
  expect(JSON.parse((await mailroomOk(root, 'task', 'add', 'job 11', '--json')).stdout)).toMatchObject({ id: '11' });
  expect(await taskIds()).toEqual([11]);
});
