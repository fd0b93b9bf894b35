/**
 * `team policy --allow/--open` edits one rule at a time inside the store's transition (issue 13):
 * two edits of different rules made at once both survive, where reading the policy and writing it
 * back whole lost one of them.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { changePolicy } from '../../../src/core/teams/policy.js';
import { spawnMember } from '../../../src/core/members/spawn.js';
import { createTeam } from '../../../src/core/teams/team-lifecycle.js';
import { openFsStores } from '../../../src/store/open.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir();
  await createTeam({ root: openFsStores(dir.path), team: 't' });
  await spawnMember({ root: openFsStores(dir.path), team: 't', name: 'alice' });
});
afterEach(() => dir.cleanup());

it('keeps both of two concurrent edits of different rules, and returns the policy after each', async () => {
  const o = { root: openFsStores(dir.path), team: 't' };
  const [a, b] = await Promise.all([changePolicy(o, [{ rule: 'createTasks', who: ['alice'] }]), changePolicy(o, [{ rule: 'message.alice', who: ['@lead'] }])]);
  expect(a.createTasks).toEqual(['alice']);
  expect(b.message).toEqual({ alice: ['@lead'] });
  expect((await openFsStores(dir.path).team.readSettings('t')).policy).toEqual({ createTasks: ['alice'], message: { alice: ['@lead'] } });
  expect(await changePolicy(o, [{ rule: 'createTasks' }, { rule: 'message.alice' }])).toEqual({});
  expect(await openFsStores(dir.path).team.readSettings('t')).toEqual({ v: 1 });
  await expect(changePolicy(o, [{ rule: 'sendMoney', who: ['*'] }])).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
});
