/**
 * Contract cases of reopening a task whose owner has left the team (new-user trial), run unchanged
 * on every backend (fs.test.ts, redis.test.ts). A member's open tasks go back to pending with no
 * owner when it leaves, but its completed ones keep it as their owner (that is their history); set
 * back to pending, such a task kept the departed owner, so `task claim` refused it
 * (TASK_ALREADY_CLAIMED), `--next` never offered it and only `doctor` noticed. A status change into
 * an open status (pending, in_progress) that does not name an owner now clears an owner who is no
 * longer a member, in the same step as the change (then `in_progress` makes the actor its owner,
 * as on any unowned task). A member's task keeps its owner; a change that names one, or leaves the
 * status alone, is kept as it is.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TeamStore } from '../../src/store/team-store.js';
import { teamConfig, teammate, type ContractBackend } from './team-store.contract.js';

const T = 'crew';

/** Runs the reopen cases against `backend`. */
export function reopenDepartedContract(name: string, backend: ContractBackend): void {
  describe(`TeamStore contract (reopening a departed owner's task): ${name}`, () => {
    let store: TeamStore;
    beforeEach(async () => {
      store = await backend.open();
      await store.createTeam(teamConfig(T));
      for (const m of ['alice', 'bob', 'carol']) await store.addMember(T, teammate(T, m), { assignColor: true });
    });
    afterEach(async () => {
      await store.close();
      await backend.dispose?.(store);
    });

    /** Task #id claimed and completed by `owner`. */
    async function completedBy(owner: string): Promise<string> {
      const id = (await store.createTask(T, { subject: `done by ${owner}`, description: '' })).value.task.id;
      await store.claimTask(T, { claimant: owner, id }, { actor: owner });
      await store.patchTask(T, id, { status: 'completed' }, { actor: owner });
      return id;
    }

    it('reopened to pending: the departed owner is cleared in the same change, and the task is claimable', async () => {
      const id = await completedBy('bob');
      await store.removeMember(T, 'bob');
      expect((await store.readTask(T, id))?.owner).toBe('bob'); // completed: its history stays
      const r = await store.patchTask(T, id, { status: 'pending' }, { actor: 'team-lead' });
      expect(r.value.task.owner).toBeUndefined();
      expect(r.value.task.status).toBe('pending');
      expect(r.value.previous.owner).toBe('bob');
      expect(r.events).toHaveLength(1);
      expect(r.events[0]).toMatchObject({ kind: 'task', action: 'updated', changed: expect.arrayContaining(['owner', 'status']) });
      expect((await store.readTask(T, id))?.owner).toBeUndefined();
      expect((await store.claimTask(T, { claimant: 'carol' }, { actor: 'carol' })).value).toMatchObject({ id, owner: 'carol', status: 'in_progress' });
    });

    it('reopened to in_progress by a member: the departed owner gives way to the actor, with a new fencing token', async () => {
      const id = await completedBy('bob');
      const before = (await store.readTask(T, id))?.fencingToken as number;
      await store.removeMember(T, 'bob');
      const r = await store.patchTask(T, id, { status: 'in_progress' }, { actor: 'carol' });
      expect(r.value.task).toMatchObject({ owner: 'carol', status: 'in_progress' });
      expect(r.value.task.fencingToken).toBeGreaterThan(before);
    });

    it("a member's reopened task keeps its owner (by name or by agentId)", async () => {
      const id = await completedBy('alice');
      expect((await store.patchTask(T, id, { status: 'pending' })).value.task.owner).toBe('alice');
      const byAgent = await completedBy('carol');
      await store.putTask(T, { ...(await store.readTask(T, byAgent))!, owner: `carol@${T}` });
      expect((await store.patchTask(T, byAgent, { status: 'pending' })).value.task.owner).toBe(`carol@${T}`);
    });

    it('an owner named in the change wins; a change that keeps the status keeps the departed owner', async () => {
      const named = await completedBy('bob');
      const kept = await completedBy('bob');
      await store.removeMember(T, 'bob');
      expect((await store.patchTask(T, named, { status: 'pending', owner: 'alice' })).value.task).toMatchObject({ owner: 'alice', status: 'pending' });
      const r = await store.patchTask(T, kept, { metadata: { note: 'looked at' } });
      expect(r.value.task).toMatchObject({ owner: 'bob', status: 'completed' });
    });
  });
}
