/**
 * `mailroom log --actor` (issue 13 item 4 "Audit"): who did what, when, refused attempts included —
 * a policy refusal and a hook refusal are journalled as `refused` events with the rule.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, afterEach, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { mailroom, mailroomOk } from '../helpers/store-files.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir();
  await mailroomOk(dir.path, 'team', 'create', 'demo');
  await mailroomOk(dir.path, 'team', 'spawn', 'alice');
  await mailroomOk(dir.path, 'team', 'spawn', 'bob');
});
afterEach(() => dir.cleanup());

it('lists what bob did and was refused, and nothing of alice', async () => {
  await mailroomOk(dir.path, 'team', 'policy', '--allow', 'createTasks=alice');
  expect((await mailroom(dir.path, 'task', 'add', 'Sneaky', '--as', 'bob')).code).not.toBe(0);
  await mailroomOk(dir.path, 'team', 'send', 'team-lead', 'status: blocked', '--as', 'bob');
  await mailroomOk(dir.path, 'task', 'add', 'Parser', '--as', 'alice', '--owner', 'bob');
  await writeFile(join(dir.path, 'teams', 'demo', 'hooks.json'), JSON.stringify({ hooks: { TaskCompleted: [{ hooks: [{ type: 'command', command: 'echo "no tests" >&2; exit 2' }] }] } }));
  expect((await mailroom(dir.path, 'task', 'update', '1', '--status', 'completed', '--as', 'bob')).code).not.toBe(0);

  const json = (await mailroomOk(dir.path, 'log', '--actor', 'bob', '--json')).stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(json.map((e) => [e.kind, e.action ?? e.to, e.rule])).toEqual([
    ['refused', 'task.create', 'policy.createTasks'],
    ['message', 'team-lead', undefined],
    ['refused', 'task.complete', 'hook:TaskCompleted'],
  ]);
  expect(json[0]).toMatchObject({ v: 3, actor: 'bob', code: 'NOT_PERMITTED', surface: 'cli' });
  expect(json[2]).toMatchObject({ target: '#1', message: expect.stringContaining('no tests') });

  const text = (await mailroomOk(dir.path, 'log', '--actor', 'bob')).stdout;
  expect(text).toContain('refused task.create by bob');
  expect(text).toContain('[policy.createTasks]');
  expect(text).not.toContain('Parser');
  const alice = (await mailroomOk(dir.path, 'log', '--actor', 'alice', '--json')).stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(alice.some((e) => e.kind === 'task' && e.action === 'created')).toBe(true);
  expect(alice.every((e) => e.actor === 'alice' || (e.kind === 'message' && (e.entry as { from: string }).from === 'alice'))).toBe(true);
});
