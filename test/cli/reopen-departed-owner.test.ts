/**
 * A completed task set back to pending after its owner left the team (new-user trial): it kept
 * the departed owner, so `task claim` refused it as claimed, `--next` never offered it, and only
 * `doctor` flagged it. Reopened, it is now released in the same step (the store contract:
 * test/contract/reopen-departed.contract.ts), and `task update` says why the owner went.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { mailroom, mailroomOk } from '../helpers/store-files.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir();
  await mailroomOk(dir.path, 'team', 'create', 'demo');
  for (const m of ['bob', 'carol']) await mailroomOk(dir.path, 'team', 'spawn', m);
  await mailroomOk(dir.path, 'task', 'add', 'Write the parser');
  await mailroomOk(dir.path, 'task', 'claim', '1', '--as', 'bob');
  await mailroomOk(dir.path, 'task', 'update', '1', '--status', 'completed', '--as', 'bob');
  await mailroomOk(dir.path, 'team', 'stop', 'bob', '--force');
});
afterEach(() => dir.cleanup());

it('reopened, the task is unowned and claimable; the update says its owner left; doctor finds nothing', async () => {
  const update = await mailroomOk(dir.path, 'task', 'update', '1', '--status', 'pending');
  expect(update.stdout.trim()).toBe('Updated task #1: pending (its owner bob has left the team, so it was released)');
  expect((await mailroomOk(dir.path, 'task', 'list')).stdout).toMatch(/^#1 +pending +- +ready +Write the parser$/m);
  expect((await mailroomOk(dir.path, 'task', 'claim', '--next', '--as', 'carol')).stdout).toContain('carol claimed task #1');
  expect((await mailroom(dir.path, 'doctor')).code).toBe(0);
});

it('--json carries departedOwner; a member\'s reopened task keeps its owner', async () => {
  const json = JSON.parse((await mailroomOk(dir.path, '--json', 'task', 'update', '1', '--status', 'pending')).stdout) as { task: { owner?: string }; departedOwner?: string };
  expect(json.departedOwner).toBe('bob');
  expect(json.task.owner).toBeUndefined();
  await mailroomOk(dir.path, 'task', 'add', 'Review it');
  await mailroomOk(dir.path, 'task', 'claim', '2', '--as', 'carol');
  await mailroomOk(dir.path, 'task', 'update', '2', '--status', 'completed', '--as', 'carol');
  expect((await mailroomOk(dir.path, 'task', 'update', '2', '--status', 'pending')).stdout.trim()).toBe('Updated task #2: pending, owner carol');
});
