/**
 * Free-form JSON values (task metadata, structured messages) nested thousands of levels deep are
 * refused up front with a clear error (exit 2), not accepted and then crashing the writer with
 * "Maximum call stack size exceeded" (INTERNAL); moderately nested values still go through.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { mailroom, mailroomOk, readJson, snapshotBytes } from '../helpers/store-files.js';

let dir: TempDir;
let root: string;

const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

beforeAll(async () => {
  dir = await makeTempDir();
  root = dir.path;
  await mailroomOk(root, 'team', 'create', 'demo');
  await mailroomOk(root, 'team', 'spawn', 'alice');
  await mailroomOk(root, 'task', 'add', 'first');
});
afterAll(() => dir.cleanup());

describe('deeply nested JSON values', () => {
  it.each([
    { what: 'task update --metadata', code: 'INVALID_ARGUMENT', args: ['task', 'update', '1', '--metadata', `deep=${nested(5000)}`] },
    { what: 'task add --metadata', code: 'INVALID_ARGUMENT', args: ['task', 'add', 'second', '--metadata', `deep=${nested(5000)}`] },
    { what: 'team send --structured', code: 'MESSAGE_INVALID', args: ['team', 'send', 'alice', '--structured', `{"type":"mode_set_request","mode":"plan","x":${nested(50000)}}`] },
  ])('$what 5000+ levels deep: exit 2 with $code naming the depth, nothing written', async ({ args, code }) => {
    const before = await snapshotBytes(root);
    const run = await mailroom(root, ...args);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(code);
    expect(run.stderr).toMatch(/nest/);
    expect(run.stderr).not.toContain('call stack');
    expect(await snapshotBytes(root)).toEqual(before);
  });

  it('metadata nested 50 levels is stored as given', async () => {
    await mailroomOk(root, 'task', 'update', '1', '--metadata', `ok=${nested(50)}`);
    const task = await readJson<{ metadata: { ok: unknown } }>(join(root, 'tasks/demo/1.json'));
    expect(JSON.stringify(task.metadata.ok)).toBe(nested(50));
  });
});
