/**
 * Contract cases of liveness by the store's clock (issue 21 item 3), run unchanged on every backend
 * (fs.test.ts, redis.test.ts): `readClock` is the store's time (Redis `TIME`, a file's mtime); a
 * claim and every beat are stamped with it when they land, whatever clock the caller passes; and a
 * claim is judged live by it, so a caller whose clock runs far ahead cannot take a live claim; and a
 * dead-member sweep's unassignment (`unassignTasks` with `ifSilent`) re-checks in its own step that
 * the member has not beaten since the beat it was judged by.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TeamStore } from '../../src/store/team-store.js';
import { teamConfig, teammate, type ContractBackend, refusal } from './team-store.contract.js';

const T = 'crew';
const HOUR = 3_600_000;
const holder = (pid: number) => ({ kind: 'agent' as const, host: 'host-a', pid, startedAt: 1_000 + pid });

/** Runs the store-clock cases against `backend`. */
export function livenessClockContract(name: string, backend: ContractBackend): void {
  describe(`TeamStore contract (liveness by the store's clock): ${name}`, () => {
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

    it('reads the store\'s clock: epoch ms that never go back', async () => {
      const a = await store.readClock(T);
      const b = await store.readClock(T);
      expect(Number.isFinite(a)).toBe(true);
      expect(b).toBeGreaterThanOrEqual(a);
      // Same machine here, so the store's clock and ours agree within a minute (a sanity bound, not a speed one).
      expect(Math.abs(a - Date.now())).toBeLessThan(60_000);
    });

    it('stamps a claim and its beats with the store\'s clock when they land, not the caller\'s', async () => {
      const before = await store.readClock(T);
      const claim = await store.claimReader(T, 'alice', holder(11), { now: before - HOUR });
      const beat = await store.beat(T, 'alice', claim.value.token, 'working', { now: before - HOUR });
      const idle = await store.beat(T, 'alice', claim.value.token, 'idle', { now: before + HOUR });
      const after = await store.readClock(T);
      for (const c of [claim.value, beat.value, idle.value]) {
        expect(c.lastBeatAt).toBeGreaterThanOrEqual(before);
        expect(c.lastBeatAt).toBeLessThanOrEqual(after);
      }
      const [stored] = await store.readClaims(T);
      expect(stored).toMatchObject({ member: 'alice', state: 'idle', lastBeatAt: idle.value.lastBeatAt });
    });

    it('judges a claim live by the store\'s clock: a caller an hour ahead cannot take it', async () => {
      await store.claimReader(T, 'alice', holder(11), { ttlMs: 60_000 });
      const err = await refusal(store.claimReader(T, 'alice', holder(12), { now: Date.now() + HOUR }));
      expect(err.code).toBe('TEAMMATE_RUNNING');
      expect(err.details).toMatchObject({ holder: { pid: 11 } });
    });

    it('judges a claim dead by the store\'s clock: a caller an hour behind can take a claim past its ttl', async () => {
      const dead = await store.claimReader(T, 'bob', holder(21), { ttlMs: 100 });
      const stale = dead.value.lastBeatAt;
      let now = await store.readClock(T);
      while (now <= stale + 100) now = await store.readClock(T); // wait on the store's clock, not a sleep
      const taken = await store.claimReader(T, 'bob', holder(22), { now: Date.now() - HOUR });
      expect(taken.value.pid).toBe(22);
      expect((await refusal(store.beat(T, 'bob', dead.value.token, 'idle'))).code).toBe('TEAMMATE_RUNNING');
    });

    it('unassigns with ifSilent only while the member has not beaten since the judged beat', async () => {
      const claim = await store.claimReader(T, 'alice', holder(11));
      await store.createTask(T, { subject: 'a', description: '' });
      await store.claimTask(T, { claimant: 'alice', id: '1' }, { actor: 'alice' });
      const judged = claim.value.lastBeatAt;
      let now = await store.readClock(T);
      while (now <= judged + 5) now = await store.readClock(T); // the next beat lands later on the store's clock
      await store.beat(T, 'alice', claim.value.token, 'working');
      const refused = await store.unassignTasks(T, 'alice', { statuses: ['in_progress'], ifSilent: { member: 'alice', lastBeatAt: judged } });
      expect(refused.value).toEqual([]);
      expect(refused.events).toEqual([]);
      expect(await store.readTask(T, '1')).toMatchObject({ owner: 'alice', status: 'in_progress' });
      const [latest] = await store.readClaims(T);
      const taken = await store.unassignTasks(T, 'alice', { statuses: ['in_progress'], ifSilent: { member: 'alice', lastBeatAt: latest!.lastBeatAt } });
      expect(taken.value.map((t) => [t.id, t.owner, t.status])).toEqual([['1', undefined, 'pending']]);
    });

    it('unassigns with ifSilent when the member holds no claim at all', async () => {
      await store.createTask(T, { subject: 'a', description: '' });
      await store.claimTask(T, { claimant: 'bob', id: '1' }, { actor: 'bob' });
      const taken = await store.unassignTasks(T, 'bob', { statuses: ['in_progress'], ifSilent: { member: 'bob', lastBeatAt: 0 } });
      expect(taken.value.map((t) => t.id)).toEqual(['1']);
    });
  });
}
