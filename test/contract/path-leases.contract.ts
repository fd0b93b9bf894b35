/**
 * Contract cases of advisory path leases (docs/leases.md), run unchanged on every backend
 * (fs.test.ts, redis.test.ts): all-or-nothing acquisition with a growing fencing token, LEASE_HELD
 * naming the holder, shared vs exclusive, racing acquirers (exactly one wins), expiry at the TTL by
 * the store's clock, release, and a departed holder's leases gone — each change journalled. A dead
 * holder's leases stay held until released for it (the dead-member sweep), exactly once, or until
 * their TTL counted from its last beat.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MailroomError } from '../../src/errors.js';
import type { TeamStore } from '../../src/store/team-store.js';
import type { AcquireRequest } from '../../src/domain/path-leases.js';
import { teamConfig, teammate, type ContractBackend, refusal } from './team-store.contract.js';
import { presenceOf } from '../../src/domain/presence.js';

const T = 'crew';
const REPO = '/repo';
const req = (holder: string, paths: string[], extra: Partial<AcquireRequest> = {}): AcquireRequest => ({ holder, repo: REPO, paths, shared: false, ttlMs: 60_000, ...extra });

/** Waits (polling the stored claims) until `member`'s runtime claim is dead. */
async function untilDead(store: TeamStore, member: string): Promise<void> {
  while (presenceOf(member, await store.readClaims(T), Date.now()).state !== 'dead') await new Promise((r) => setTimeout(r, 50));
}

const runtime = { kind: 'agent' as const, host: 'host-a', pid: 11, startedAt: 1_011 };

/** Runs the path-lease cases against `backend`. */
export function pathLeaseContract(name: string, backend: ContractBackend): void {
  describe(`TeamStore contract (path leases): ${name}`, () => {
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

    it('acquires with growing tokens; an overlapping exclusive lease is LEASE_HELD naming the holder, and changes nothing', async () => {
      const a = await store.acquirePathLease(T, req('alice', ['src/**'], { reason: 'store refactor' }), { actor: 'alice' });
      expect(a.value).toMatchObject({ id: 'pl-1', holder: 'alice', paths: ['src/**'], token: 1, shared: false, reason: 'store refactor' });
      expect(a.events).toMatchObject([{ kind: 'lease', action: 'acquired', id: 'pl-1', holder: 'alice', paths: ['src/**'], token: 1 }]);
      // bob wants a free file and a held one: all or nothing.
      const err = await refusal(store.acquirePathLease(T, req('bob', ['docs/x.md', 'src/store/a.ts'])));
      expect(err.code).toBe('LEASE_HELD');
      expect(err.message).toContain('alice');
      expect(err.message).toContain('src/**');
      expect(err.message).toContain('store refactor');
      expect(err.details).toMatchObject({ holders: [{ id: 'pl-1', holder: 'alice' }] });
      expect((await store.listPathLeases(T)).value.map((l) => l.id)).toEqual(['pl-1']);
      // Outside the lease, and in another repository, bob is free; tokens only grow.
      expect((await store.acquirePathLease(T, req('bob', ['docs/x.md']))).value.token).toBe(2);
      expect((await store.acquirePathLease(T, req('carol', ['src/**'], { repo: '/other' }))).value.token).toBe(3);
      // The same member may overlap itself.
      expect((await store.acquirePathLease(T, req('alice', ['src/store/a.ts']))).value.token).toBe(4);
    });

    it('a repository nested in another is the same files: a lease named from an enclosing or an inner --repo conflicts by what it covers', async () => {
      await store.acquirePathLease(T, req('alice', ['src/a.ts']));
      // The same file through an enclosing root, through an inner root, and the whole inner root.
      for (const [repo, paths] of [['/', ['repo/src/a.ts']], ['/', ['**']], ['/repo/src', ['a.ts']], ['/repo/src', ['.']], ['/repo/', ['src']]] as const) {
        expect((await refusal(store.acquirePathLease(T, req('bob', [...paths], { repo })))).code, `${repo} ${paths.join(' ')}`).toBe('LEASE_HELD');
      }
      // Other files through those roots, and a repository whose name only starts like it, are free.
      expect((await store.acquirePathLease(T, req('bob', ['repo/docs'], { repo: '/' }))).value.holder).toBe('bob');
      expect((await store.acquirePathLease(T, req('bob', ['b.ts'], { repo: '/repo/src' }))).value.holder).toBe('bob');
      expect((await store.acquirePathLease(T, req('carol', ['src/a.ts'], { repo: '/repository' }))).value.holder).toBe('carol');
      // And the other way round: alice's inner lease blocks an outer one over it.
      await store.acquirePathLease(T, req('alice', ['**'], { repo: '/srv/inner' }));
      expect((await refusal(store.acquirePathLease(T, req('carol', ['inner/x.ts'], { repo: '/srv' })))).code).toBe('LEASE_HELD');
    });

    it('shared leases conflict only with exclusive ones', async () => {
      await store.acquirePathLease(T, req('alice', ['*.md'], { shared: true }));
      await store.acquirePathLease(T, req('bob', ['README.md'], { shared: true }));
      expect((await refusal(store.acquirePathLease(T, req('carol', ['README.md'])))).code).toBe('LEASE_HELD');
      expect((await store.listPathLeases(T)).value).toHaveLength(2);
    });

    it('racing acquirers of one path: exactly one wins', async () => {
      const names = ['alice', 'bob', 'carol'];
      const results = await Promise.allSettled(names.map((n) => store.acquirePathLease(T, req(n, ['src/store/']), { actor: n })));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect((r.reason as MailroomError).code).toBe('LEASE_HELD');
      expect((await store.listPathLeases(T)).value).toHaveLength(1);
    });

    it('a lease of a holder with no runtime expires at its TTL by the store\'s clock, journalled', async () => {
      await store.acquirePathLease(T, req('alice', ['src/a.ts'], { ttlMs: 300 }));
      await new Promise((r) => setTimeout(r, 600));
      const listed = await store.listPathLeases(T);
      expect(listed.value).toEqual([]);
      expect(listed.events).toMatchObject([{ kind: 'lease', action: 'expired', id: 'pl-1', why: 'expired' }]);
      expect((await store.acquirePathLease(T, req('bob', ['src/a.ts']))).value.holder).toBe('bob');
    });

    it('release, LEASE_NOT_FOUND for a lease one does not hold, and a departed holder\'s leases are gone', async () => {
      await store.acquirePathLease(T, req('alice', ['a/**']));
      await store.acquirePathLease(T, req('alice', ['b/**']));
      await store.acquirePathLease(T, req('bob', ['c/**']));
      expect((await refusal(store.releasePathLeases(T, { holder: 'bob', ids: ['pl-1'] }))).code).toBe('LEASE_NOT_FOUND');
      const one = await store.releasePathLeases(T, { holder: 'alice', ids: ['pl-1'] });
      expect(one.value.map((l) => l.id)).toEqual(['pl-1']);
      expect(one.events).toMatchObject([{ kind: 'lease', action: 'released', id: 'pl-1' }]);
      await store.removeMember(T, 'bob');
      const listed = await store.listPathLeases(T);
      expect(listed.value.map((l) => l.id)).toEqual(['pl-2']);
      expect(listed.events).toMatchObject([{ kind: 'lease', action: 'expired', id: 'pl-3', holder: 'bob', why: 'left' }]);
      expect((await store.releasePathLeases(T, { holder: 'alice', all: true })).value.map((l) => l.id)).toEqual(['pl-2']);
    });

    it('a dead holder\'s leases are held until released for it, exactly once (two sweepers at once), journalled with why', async () => {
      await store.claimReader(T, 'alice', runtime, { ttlMs: 200 });
      await store.acquirePathLease(T, req('alice', ['src/**']));
      await untilDead(store, 'alice');
      // Dead, not yet swept: still held (a stalled store looks like everyone dead; the sweep judges that).
      expect((await refusal(store.acquirePathLease(T, req('bob', ['src/a.ts'])))).code).toBe('LEASE_HELD');
      const why = 'holder dead';
      const sweeps = await Promise.all([1, 2].map(() => store.releasePathLeases(T, { holder: 'alice', all: true, why }, { actor: 'bob' })));
      expect(sweeps.flatMap((s) => s.value.map((l) => l.id))).toEqual(['pl-1']);
      expect(sweeps.flatMap((s) => s.events)).toMatchObject([{ kind: 'lease', action: 'released', id: 'pl-1', holder: 'alice', why }]);
      expect((await store.acquirePathLease(T, req('bob', ['src/a.ts']))).value.holder).toBe('bob');
    });

    it('a dead holder\'s lease ends at its TTL counted from the last beat, journalled dead', async () => {
      await store.claimReader(T, 'alice', runtime, { ttlMs: 200 });
      await store.acquirePathLease(T, req('alice', ['src/**'], { ttlMs: 300 }));
      await untilDead(store, 'alice');
      const lastBeatAt = (await store.readClaims(T)).find((c) => c.member === 'alice')!.lastBeatAt;
      while (Date.now() < lastBeatAt + 400) await new Promise((r) => setTimeout(r, 50));
      const listed = await store.listPathLeases(T);
      expect(listed.value).toEqual([]);
      expect(listed.events).toMatchObject([{ kind: 'lease', action: 'expired', id: 'pl-1', why: 'dead' }]);
    });

    it('the lead takes over with force, each taken lease journalled forced', async () => {
      await store.acquirePathLease(T, req('alice', ['src/**']));
      const taken = await store.acquirePathLease(T, req('team-lead', ['src/x.ts'], { force: true }), { actor: 'team-lead' });
      expect(taken.events.map((e) => (e.kind === 'lease' ? e.action : e.kind))).toEqual(['forced', 'acquired']);
      expect((await store.listPathLeases(T)).value.map((l) => l.holder)).toEqual(['team-lead']);
    });
  });
}
