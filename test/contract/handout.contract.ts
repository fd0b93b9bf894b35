/**
 * Contract cases of issue 21 (acknowledged hand-out, one copy per msg_id), run by fs.test.ts and
 * redis.test.ts on both backends beside the main suite (team-store.contract.ts), through the
 * TeamStore interface alone.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TeamStore } from '../../src/store/team-store.js';
import { entry, teamConfig, teammate, type ContractBackend, refusal } from './team-store.contract.js';

const T = 'crew';
const holder = (pid: number) => ({ kind: 'mcp' as const, host: 'host-a', pid, startedAt: 1_000 + pid });

/** Runs the issue-21 cases against `backend`. */
export function handOutContract(name: string, backend: ContractBackend): void {
  describe(`TeamStore contract (hand-out, issue 21): ${name}`, () => {
    let store: TeamStore;
    beforeEach(async () => {
      store = await backend.open();
      await store.createTeam(teamConfig(T));
      await store.addMember(T, teammate(T, 'alice'), { assignColor: true });
    });
    afterEach(async () => {
      await store.close();
      await backend.dispose?.(store);
    });

    it('keeps one copy of an entry whose msg_id is already in the inbox (and within one batch), returning the stored one', async () => {
      const first = entry('team-lead', 'once');
      const stored = await store.appendMessages(T, [{ to: 'alice', entry: first }]);
      const again = await store.appendMessages(T, [{ to: 'alice', entry: { ...first, text: 'changed' } }, { to: 'alice', entry: { ...first, text: 'twice' } }]);
      expect(again.events).toEqual([]);
      expect(again.value.messages.map((m) => m.entry.text)).toEqual(['once', 'once']);
      const other = entry('team-lead', 'other');
      const batch = await store.appendMessages(T, [{ to: 'alice', entry: other }, { to: 'alice', entry: other }]);
      expect(batch.events).toHaveLength(1);
      const inbox = await store.readInbox(T, 'alice');
      expect(inbox.map((e) => e.text)).toEqual(['once', 'other']);
      expect(inbox[0]!.msg_id).toBe(stored.value.messages[0]!.entry.msg_id);
    });

    // Session 14: a JavaScript caller's number reader made the files backend write a lease sidecar
    // that no later take could read.
    it.each([
      ['a reader that is not a string', { reader: 42 }],
      ['a reader object without a prototype (no toString to call)', { reader: Object.create(null) as object }],
      ['an empty reader', { reader: '' }],
      ['a limit below 1', { reader: 'r', limit: 0 }],
      ['a fractional limit', { reader: 'r', limit: 1.5 }],
      ['a lease of 0 ms', { reader: 'r', leaseMs: 0 }],
      ['a lease that is not a number', { reader: 'r', leaseMs: Number.NaN }],
      // The break test's: a lease past any integer ms (Redis overflowed it into the past: a double
      // hand-out), an instant that is no number (files wrote an unreadable sidecar), a claim that
      // is no string (it broke the Redis connection), no options at all.
      ['a lease of 1e300 ms', { reader: 'r', leaseMs: 1e300 }],
      ['an instant that is an object', { reader: 'r', now: {} }],
      ['an instant given as a string', { reader: 'r', now: '5' }],
      ['an instant of NaN', { reader: 'r', now: Number.NaN }],
      ['a claim that is a number', { reader: 'r', claim: 5 }],
      ['acknowledge given as a string', { reader: 'r', acknowledge: 'yes' }],
      ['no options', null],
    ])('refuses to take with %s (INVALID_ARGUMENT), hands nothing out, and the next take works', async (_what, options) => {
      await store.appendMessages(T, [{ to: 'alice', entry: entry('team-lead', 'kept') }]);
      const err = await refusal(store.takeUnread(T, 'alice', options as never));
      expect(err.code).toBe('INVALID_ARGUMENT');
      expect(await store.readConfig(T)).toMatchObject({ name: T }); // the connection still serves
      const next = await store.takeUnread(T, 'alice', { reader: 'reader-1' });
      expect(next.value.entries.map((e) => e.text)).toEqual(['kept']);
      expect(next.value.deliveries).toEqual([1]);
    });

    it.each(['', '  ', 42])('refuses the idempotency key %j of a send and of a task (INVALID_ARGUMENT), storing nothing', async (key) => {
      const err = await refusal(store.appendMessages(T, [{ to: 'alice', entry: entry('team-lead', 'x') }], { idempotencyKey: key as string }));
      expect(err.code).toBe('INVALID_ARGUMENT');
      expect((await refusal(store.createTask(T, { subject: 's', description: '' }, { idempotencyKey: key as string }))).code).toBe('INVALID_ARGUMENT');
      expect(await store.readInbox(T, 'alice')).toEqual([]);
      expect(await store.listTasks(T)).toEqual([]);
    });

    // Issue 24 (a woken teammate's request before its take commits): a look is a read. Files has
    // one (its take costs a lock and a rename); Redis has none (its take is one round trip, as a read).
    it('a look (TeamStore.lookUnread) hands nothing out: the unread entries and a stamp, and the next take hands them out', async () => {
      expect(typeof store.lookUnread, 'files looks before it takes; Redis takes at once').toBe(name === 'redis' ? 'undefined' : 'function');
      if (store.lookUnread === undefined) return;
      expect(await store.lookUnread(T, 'alice')).toEqual({ entries: [] });
      await store.appendMessages(T, [{ to: 'alice', entry: entry('team-lead', 'one') }]);
      const first = await store.takeUnread(T, 'alice', { reader: 'reader-1' });
      await store.acknowledge(T, 'alice', first.value.id);
      await store.appendMessages(T, [{ to: 'alice', entry: entry('team-lead', 'two') }, { to: 'alice', entry: entry('bob', 'three') }]);
      const look = await store.lookUnread(T, 'alice');
      const again = await store.lookUnread(T, 'alice');
      expect(look.entries.map((e) => e.text)).toEqual(['two', 'three']); // read ones are not in it
      expect(again.entries).toEqual(look.entries); // a look took nothing
      const taken = await store.takeUnread(T, 'alice', { reader: 'reader-1' });
      expect(taken.value.entries).toEqual(look.entries);
      expect(taken.value.deliveries).toEqual([1, 1]);
      expect(look.viewStamp === taken.value.viewStamp || store.sameView?.(look.viewStamp!, taken.value.viewStamp!) === true).toBe(true);
      // Leases are not read: a look still shows entries a live lease holds, and the take then hands out fewer.
      expect((await store.lookUnread(T, 'alice')).entries.map((e) => e.text)).toEqual(['two', 'three']);
      expect((await store.takeUnread(T, 'alice', { reader: 'reader-2' })).value.entries).toEqual([]);
    });

    it('returns the stored copy of a repeated msg_id as it is now: read once it was read', async () => {
      const first = entry('team-lead', 'once');
      await store.appendMessages(T, [{ to: 'alice', entry: first }]);
      await store.markRead(T, 'alice', [first.msg_id!]);
      const again = await store.appendMessages(T, [{ to: 'alice', entry: { ...first, read: false } }]);
      expect(again.value.messages.map((m) => [m.entry.text, m.entry.read])).toEqual([['once', true]]);
      expect((await store.readInbox(T, 'alice')).map((e) => [e.text, e.read])).toEqual([['once', true]]);
    });

    it('counts hand-outs: 1 the first time, more after a release, an expired lease or a takeover; none once read', async () => {
      const a = await store.claimReader(T, 'alice', holder(11));
      await store.appendMessages(T, [{ to: 'alice', entry: entry('team-lead', 'x') }, { to: 'alice', entry: entry('team-lead', 'y') }]);
      const first = await store.takeUnread(T, 'alice', { reader: a.value.token, claim: a.value.token, limit: 1 });
      expect(first.value.deliveries).toEqual([1]);
      await store.release(T, 'alice', first.value.id);
      const second = await store.takeUnread(T, 'alice', { reader: a.value.token, claim: a.value.token });
      expect(second.value.entries.map((e) => e.text)).toEqual(['x', 'y']);
      expect(second.value.deliveries).toEqual([2, 1]);
      const b = await store.claimReader(T, 'alice', holder(12), { evict: { host: 'host-a', pid: 11, startedAt: 1_011 } });
      const third = await store.takeUnread(T, 'alice', { reader: b.value.token, claim: b.value.token, leaseMs: 100 });
      expect(third.value.deliveries).toEqual([3, 2]);
      await new Promise((r) => setTimeout(r, 200));
      const fourth = await store.takeUnread(T, 'alice', { reader: b.value.token, claim: b.value.token });
      expect(fourth.value.deliveries).toEqual([4, 3]);
      expect((await store.acknowledge(T, 'alice', fourth.value.id, { claim: b.value.token })).value).toBe(2);
      await store.appendMessages(T, [{ to: 'alice', entry: entry('team-lead', 'z') }]);
      const fresh = await store.takeUnread(T, 'alice', { reader: b.value.token, claim: b.value.token });
      expect(fresh.value.entries.map((e) => e.text)).toEqual(['z']);
      expect(fresh.value.deliveries).toEqual([1]);
    });

    it('keeps a lease for the entries an acknowledgement of some keys left out', async () => {
      const sent = await store.appendMessages(T, ['p', 'q', 'r'].map((text) => ({ to: 'alice', entry: entry('team-lead', text) })));
      const [p, q, r] = sent.value.messages.map((m) => m.entry.msg_id!);
      const lease = await store.takeUnread(T, 'alice', { reader: 'r1' });
      expect((await store.acknowledge(T, 'alice', lease.value.id, { keys: [q!] })).value).toBe(1);
      expect((await store.acknowledge(T, 'alice', lease.value.id, { keys: [] })).value).toBe(0);
      expect((await store.takeUnread(T, 'alice', { reader: 'r2' })).value.entries).toEqual([]); // p and r are still held
      expect((await store.acknowledge(T, 'alice', lease.value.id)).value).toBe(2);
      expect((await store.readInbox(T, 'alice')).map((e) => [e.msg_id, e.read])).toEqual([
        [p, true],
        [q, true],
        [r, true],
      ]);
    });

    it('refuses a take and an acknowledgement by a reader whose claim was taken over (READER_FENCED), taking and marking nothing', async () => {
      const old = await store.claimReader(T, 'alice', holder(11));
      await store.appendMessages(T, [{ to: 'alice', entry: entry('team-lead', 'in flight') }]);
      const lease = await store.takeUnread(T, 'alice', { reader: old.value.token, claim: old.value.token });
      expect(lease.value.entries).toHaveLength(1);
      const next = await store.claimReader(T, 'alice', holder(12), { evict: { host: 'host-a', pid: 11, startedAt: 1_011 } });
      const ack = await refusal(store.acknowledge(T, 'alice', lease.value.id, { claim: old.value.token }));
      expect(ack.code).toBe('READER_FENCED');
      expect(ack.details).toMatchObject({ team: T, name: 'alice', holder: { kind: 'mcp', pid: 12 } });
      expect((await store.readInbox(T, 'alice')).map((e) => e.read)).toEqual([false]);
      await store.appendMessages(T, [{ to: 'alice', entry: entry('team-lead', 'later') }]);
      expect((await refusal(store.takeUnread(T, 'alice', { reader: old.value.token, claim: old.value.token }))).code).toBe('READER_FENCED');
      const again = await store.takeUnread(T, 'alice', { reader: next.value.token, claim: next.value.token });
      expect(again.value.entries.map((e) => e.text)).toEqual(['in flight', 'later']);
      expect(again.value.deliveries).toEqual([2, 1]);
      expect((await store.acknowledge(T, 'alice', again.value.id, { claim: next.value.token })).value).toBe(2);
      await store.releaseReader(T, 'alice', next.value.token);
      expect((await refusal(store.takeUnread(T, 'alice', { reader: next.value.token, claim: next.value.token }))).code).toBe('READER_FENCED');
    });

    it('releases the leases a reader took when it gives its claim up: the next reader gets them at once, counted as handed out again', async () => {
      const old = await store.claimReader(T, 'alice', holder(11));
      await store.appendMessages(T, [{ to: 'alice', entry: entry('team-lead', 'in flight') }]);
      const lease = await store.takeUnread(T, 'alice', { reader: old.value.token, claim: old.value.token, leaseMs: 600_000 });
      expect(lease.value.entries).toHaveLength(1);
      const released = await store.releaseReader(T, 'alice', old.value.token);
      expect(released.events.filter((e) => e.kind === 'delivery').map((e) => (e as { state?: string }).state)).toEqual(['released']);
      const next = await store.claimReader(T, 'alice', holder(12));
      const again = await store.takeUnread(T, 'alice', { reader: next.value.token, claim: next.value.token });
      expect(again.value.entries.map((e) => e.text)).toEqual(['in flight']);
      expect(again.value.deliveries).toEqual([2]);
    });
  });
}
