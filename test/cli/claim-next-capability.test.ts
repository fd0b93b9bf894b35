/**
 * `task claim --next` when the only ready tasks require a capability the claimant lacks (trial 2,
 * item 3): NO_READY_TASK says how many were skipped, for which capability, who declares it and how
 * a member gets one — not a bare "no ready task" while `task list --ready` shows them.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { mailroom, mailroomOk } from '../helpers/store-files.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir();
  await mailroomOk(dir.path, 'team', 'create', 'demo');
  await mailroomOk(dir.path, 'team', 'spawn', 'erin');
  await mailroomOk(dir.path, 'team', 'spawn', 'rita', '--capability', 'review');
});
afterEach(async () => {
  await dir.cleanup();
});

it('names the skipped task, the capability erin lacks, who declares it and how to give it', async () => {
  await mailroomOk(dir.path, 'task', 'add', 'Review it', '--requires', 'review');
  expect((await mailroomOk(dir.path, 'task', 'list', '--ready')).stdout).toContain('Review it');
  const r = await mailroom(dir.path, 'task', 'claim', '--next', '--as', 'erin');
  expect(r.code).toBe(3);
  expect(r.stderr).toContain('NO_READY_TASK');
  expect(r.stderr).toContain('1 ready task needs a capability erin lacks: review (#1)');
  expect(r.stderr).toContain('review is declared by rita');
  expect(r.stderr).toContain('--capability review');
  const json = await mailroom(dir.path, '--json', 'task', 'claim', '--next', '--as', 'erin');
  expect(JSON.parse(json.stderr)).toMatchObject({ error: { code: 'NO_READY_TASK', details: { skipped: [{ id: '1', missing: ['review'] }] } } });
  // The member that declares it gets it.
  expect((await mailroomOk(dir.path, 'task', 'claim', '--next', '--as', 'rita')).stdout).toContain('#1');
});

it('with nothing ready at all, says so plainly', async () => {
  const r = await mailroom(dir.path, 'task', 'claim', '--next', '--as', 'erin');
  expect(r.code).toBe(3);
  expect(r.stderr).toContain('No ready task in team "demo"');
  expect(r.stderr).not.toContain('capability');
});
