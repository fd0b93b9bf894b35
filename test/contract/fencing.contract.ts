/**
 * Contract cases of fencing tokens on task ownership (issue 21 item 2), run unchanged on every
 * backend (fs.test.ts, redis.test.ts): every claim issues the task's next token (max(previous + 1,
 * the store's clock in ms)), an owner's write
 * carrying a stale one is refused (TASK_FENCED) in the same step and writes nothing, unfenced
 * writes (the lead, a mirror) keep working, and the token survives a mirror and a copy.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MailroomError } from '../../src/errors.js';
import type { TeamStore } from '../../src/store/team-store.js';
import type { Task } from '../../src/protocol/task.js';
import { readTeamImage } from '../../src/core/teams/store-copy.js';
import { teamConfig, teammate, type ContractBackend, refusal } from './team-store.contract.js';

const T = 'crew';

/** Runs the fencing cases against `backend`. */
export function fencingContract(name: string, backend: ContractBackend): void {
  describe(`TeamStore contract (fencing tokens): ${name}`, () => {
    let store: TeamStore;
    beforeEach(async () => {
      store = await backend.open();
      await store.createTeam(teamConfig(T));
      for (const m of ['alice', 'bob']) await store.addMember(T, teammate(T, m), { assignColor: true });
    });
    afterEach(async () => {
      await store.close();
      await backend.dispose?.(store);
    });

    it('issues a growing token on every claim, returned on the task and journalled', async () => {
      await store.createTask(T, { subject: 'a', description: '' });
      expect((await store.readTask(T, '1'))?.fencingToken).toBeUndefined();
      // Issued as max(previous + 1, the store's clock in ms): the tests' store clocks are this machine's.
      const clock = Date.now();
      const first = await store.claimTask(T, { claimant: 'alice', id: '1' }, { actor: 'alice' });
      const t1 = first.value!.fencingToken as number;
      expect(t1).toBeGreaterThanOrEqual(clock);
      expect(t1).toBeLessThanOrEqual(Date.now());
      expect(first.value).toMatchObject({ owner: 'alice', status: 'in_progress' });
      expect(first.events).toMatchObject([{ kind: 'task', action: 'updated', task: { id: '1', fencingToken: t1 } }]);
      expect(first.events[0]).toMatchObject({ changed: expect.arrayContaining(['owner', 'status', 'fencingToken']) });
      // A re-claim by the same owner (a restarted runtime) fences off its earlier process.
      const t2 = (await store.claimTask(T, { claimant: 'alice', id: '1' })).value!.fencingToken as number;
      expect(t2).toBeGreaterThan(t1);
      await store.unassignTasks(T, 'alice', { statuses: ['in_progress'] });
      expect((await store.readTask(T, '1'))?.fencingToken).toBe(t2);
      const t3 = (await store.claimTask(T, { claimant: 'bob' }, { actor: 'bob' })).value!;
      expect(t3).toMatchObject({ owner: 'bob' });
      expect(t3.fencingToken).toBeGreaterThan(t2);
      expect((await store.listTasks(T))[0]?.fencingToken).toBe(t3.fencingToken);
    });

    it('issues a token above a stored one from the future and keeps growing within one millisecond', async () => {
      await store.createTask(T, { subject: 'a', description: '' });
      const ahead = Date.now() + 3_600_000; // e.g. copied from a store whose clock ran an hour ahead
      await store.putTask(T, { ...(await store.readTask(T, '1'))!, fencingToken: ahead } as Task);
      const tokens: number[] = [];
      for (let i = 0; i < 5; i++) tokens.push((await store.claimTask(T, { claimant: 'alice', id: '1' })).value!.fencingToken as number);
      expect(tokens).toEqual([ahead + 1, ahead + 2, ahead + 3, ahead + 4, ahead + 5]);
    });

    it('refuses a stale owner\'s write in the same step, writing nothing; the current owner\'s and unfenced writes go', async () => {
      await store.createTask(T, { subject: 'a', description: '', metadata: { command: 'make' } });
      const a = (await store.claimTask(T, { claimant: 'alice', id: '1' })).value!.fencingToken as number;
      await store.patchTask(T, '1', { metadata: { note: 'alice started' }, fencingToken: a }, { actor: 'alice' });
      await store.unassignTasks(T, 'alice', { statuses: ['in_progress'] }); // swept as dead
      // Unowned now: alice's token no longer gives her the task.
      const unowned = await refusal(store.patchTask(T, '1', { metadata: { exitCode: 1 }, fencingToken: a }, { actor: 'alice' }));
      expect(unowned.code).toBe('TASK_FENCED');
      const b = (await store.claimTask(T, { claimant: 'bob', id: '1' })).value!.fencingToken as number;
      expect(b).toBeGreaterThan(a);
      await store.patchTask(T, '1', { metadata: { exitCode: 0, outputTail: 'bob' }, fencingToken: b }, { actor: 'bob' });
      await store.patchTask(T, '1', { status: 'completed', fencingToken: b }, { actor: 'bob' });
      const before = await store.readTask(T, '1');
      const mark = await store.readEvents(T);
      for (const patch of [{ metadata: { exitCode: 1, outputTail: 'alice' } }, { status: 'completed' as const }, { status: 'pending' as const }, { owner: 'alice' }]) {
        const err = await refusal(store.patchTask(T, '1', { ...patch, fencingToken: a }, { actor: 'alice' }));
        expect(err.code).toBe('TASK_FENCED');
        expect(err.details).toMatchObject({ id: '1', actor: 'alice', token: a, current: b, owner: 'bob' });
      }
      // bob's token in another member's hands is no better.
      expect((await refusal(store.patchTask(T, '1', { metadata: { x: 1 }, fencingToken: b }, { actor: 'alice' }))).code).toBe('TASK_FENCED');
      expect(await store.readTask(T, '1')).toEqual(before);
      expect((await store.readEvents(T, { since: mark.cursor })).events).toEqual([]);
      // The lead (no token) may still change it.
      expect((await store.patchTask(T, '1', { metadata: { reviewed: true } }, { actor: 'team-lead' })).value.task.metadata).toMatchObject({ outputTail: 'bob', reviewed: true });
    });

    it('a new owner by a change is a claim: the next token, the old owner fenced', async () => {
      await store.createTask(T, { subject: 'a', description: '' });
      const a = (await store.claimTask(T, { claimant: 'alice', id: '1' })).value!.fencingToken as number;
      const moved = await store.patchTask(T, '1', { owner: 'bob' }, { actor: 'team-lead' });
      expect(moved.value.task.fencingToken).toBeGreaterThan(a);
      expect((await refusal(store.patchTask(T, '1', { status: 'completed', fencingToken: a }, { actor: 'alice' }))).code).toBe('TASK_FENCED');
      // Starting an unowned task makes the actor its owner: a claim as well.
      await store.createTask(T, { subject: 'b', description: '' });
      const started = await store.patchTask(T, '2', { status: 'in_progress' }, { actor: 'bob' });
      expect(started.value.task).toMatchObject({ owner: 'bob' });
      const b = started.value.task.fencingToken as number;
      expect(b).toBeGreaterThan(0);
      // A change that keeps the owner keeps the token.
      expect((await store.patchTask(T, '2', { subject: 'b2', fencingToken: b }, { actor: 'bob' })).value.task.fencingToken).toBe(b);
    });

    it('of a stale and a current write racing, only the current lands', async () => {
      await store.createTask(T, { subject: 'a', description: '' });
      const a = (await store.claimTask(T, { claimant: 'alice', id: '1' })).value!.fencingToken as number;
      await store.unassignTasks(T, 'alice');
      const b = (await store.claimTask(T, { claimant: 'bob', id: '1' })).value!.fencingToken as number;
      const writes = Array.from({ length: 6 }, (_, i) =>
        i % 2 === 0
          ? store.patchTask(T, '1', { metadata: { by: 'alice', i }, status: 'completed', fencingToken: a }, { actor: 'alice' }).then(() => 'alice', (e: MailroomError) => e.code)
          : store.patchTask(T, '1', { metadata: { by: 'bob', i }, fencingToken: b }, { actor: 'bob' }).then(() => 'bob', (e: MailroomError) => e.code),
      );
      const outcomes = await Promise.all(writes);
      expect(outcomes.filter((o) => o === 'TASK_FENCED')).toHaveLength(3);
      expect(outcomes.filter((o) => o === 'bob')).toHaveLength(3);
      expect(await store.readTask(T, '1')).toMatchObject({ owner: 'bob', status: 'in_progress', metadata: { by: 'bob' } });
    });

    it('keeps the token and unknown keys through a mirror (putTask) and a copy (importTeam)', async () => {
      await store.createTask(T, { subject: 'a', description: '' });
      const t1 = (await store.claimTask(T, { claimant: 'alice', id: '1' })).value!.fencingToken as number;
      const task = (await store.readTask(T, '1'))!;
      await store.putTask(T, { ...task, subject: 'mirrored', extra: { kept: true } } as typeof task);
      expect(await store.readTask(T, '1')).toMatchObject({ subject: 'mirrored', fencingToken: t1, extra: { kept: true } });
      const t2 = (await store.claimTask(T, { claimant: 'alice', id: '1' })).value!;
      expect(t2).toMatchObject({ extra: { kept: true } });
      expect(t2.fencingToken).toBeGreaterThan(t1);
      const image = await readTeamImage(store, T);
      await store.deleteTeam(T);
      await store.importTeam(image);
      expect((await store.readTask(T, '1'))?.fencingToken).toBe(t2.fencingToken);
      expect((await store.claimTask(T, { claimant: 'alice', id: '1' })).value?.fencingToken).toBeGreaterThan(t2.fencingToken as number);
    });
  });
}
