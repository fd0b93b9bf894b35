/**
 * Appends that share a round trip (issue 24, batching writers): concurrent `appendMessages` calls
 * of one process may be combined into one transition (one append-messages script call on Redis, one
 * spooled write on files). Whatever is combined, each call gets its own answer, inbox order follows
 * the order the calls were issued in, a msg_id is stored once inside one call and across calls, a
 * refused call does not affect the others, and every message is stored and journalled exactly once.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeInboxEntry } from '../../src/protocol/inbox.js';
import type { TeamStore } from '../../src/store/team-store.js';
import { entry, refusal, teamConfig, teammate, type ContractBackend } from './team-store.contract.js';

const T = 'batch';

/** Runs the batched-append cases against `backend`. */
export function batchedAppendContract(name: string, backend: ContractBackend): void {
  describe(`TeamStore contract, batched appends: ${name}`, () => {
    let store: TeamStore;
    beforeEach(async () => {
      store = await backend.open();
      await store.createTeam(teamConfig(T));
      for (const m of ['alice', 'bob']) await store.addMember(T, teammate(T, m));
    });
    afterEach(async () => {
      await store.close();
      await backend.dispose?.(store);
    });

    it('keeps the order of the entries of one call, and of each writer\'s successive calls, while others append', async () => {
      const texts = Array.from({ length: 30 }, (_, i) => `m${i}`);
      const noise = Array.from({ length: 6 }, (_, i) => store.appendMessages(T, [{ to: 'alice', entry: entry('team-lead', `n${i}`) }]));
      await store.appendMessages(T, texts.map((text, i) => ({ to: i % 3 ? 'alice' : 'bob', entry: entry('bob', text) })));
      for (const text of ['s0', 's1', 's2']) await store.appendMessages(T, [{ to: 'alice', entry: entry('bob', text) }]);
      await Promise.all(noise);
      const alice = (await store.readInbox(T, 'alice')).map((e) => e.text).filter((t) => !t.startsWith('n'));
      expect(alice).toEqual([...texts.filter((_, i) => i % 3), 's0', 's1', 's2']);
      expect((await store.readInbox(T, 'bob')).map((e) => e.text)).toEqual(texts.filter((_, i) => i % 3 === 0));
    });

    it('stores a call of several hundred entries whole and in order', async () => {
      const texts = Array.from({ length: 450 }, (_, i) => `big${i}`);
      const t = await store.appendMessages(T, texts.map((text) => ({ to: 'alice', entry: entry('bob', text, '2026-03-01T12:00:00.000Z') })));
      expect(t.events).toHaveLength(450);
      const inbox = await store.readInbox(T, 'alice');
      expect(inbox.map((e) => e.text)).toEqual(texts);
      expect(new Set(inbox.map((e) => e.timestamp)).size).toBe(1);
      expect(await store.readInbox(T, 'alice')).toEqual(t.value.messages.map((m) => m.entry));
    });

    it('stores a msg_id once inside one call; every copy in the answer is the stored entry', async () => {
      const id = randomUUID();
      const one = makeInboxEntry({ from: 'bob', text: 'once', timestamp: new Date().toISOString(), msgId: id });
      const t = await store.appendMessages(T, [{ to: 'alice', entry: one }, { to: 'alice', entry: { ...one } }, { to: 'alice', entry: entry('bob', 'other') }]);
      expect(t.value.messages.map((m) => m.entry.text)).toEqual(['once', 'once', 'other']);
      expect(t.value.messages[1]!.entry).toEqual(t.value.messages[0]!.entry);
      expect(t.events.map((e) => (e.kind === 'message' ? e.entry.text : e.kind))).toEqual(['once', 'other']);
      expect((await store.readInbox(T, 'alice')).map((e) => e.text)).toEqual(['once', 'other']);
    });

    it('stores a msg_id once across concurrent calls, and once when it is appended again later', async () => {
      const id = randomUUID();
      const one = makeInboxEntry({ from: 'bob', text: 'dup', timestamp: new Date().toISOString(), msgId: id });
      const calls = await Promise.all(Array.from({ length: 6 }, () => store.appendMessages(T, [{ to: 'alice', entry: { ...one } }])));
      expect(calls.every((c) => c.value.messages[0]!.entry.msg_id === id)).toBe(true);
      await store.appendMessages(T, [{ to: 'alice', entry: { ...one } }]);
      expect((await store.readInbox(T, 'alice')).filter((e) => e.msg_id === id)).toHaveLength(1);
      expect((await store.readEvents(T)).events.filter((e) => e.kind === 'message' && e.entry.msg_id === id)).toHaveLength(1);
    });

    it('keeps (from, timestamp, text) unique inside one call and across concurrent calls', async () => {
      const at = '2026-03-01T12:00:00.000Z';
      const same = () => ({ to: 'alice', entry: entry('bob', 'same', at) });
      await Promise.all([store.appendMessages(T, [same(), same(), same()]), store.appendMessages(T, [same()]), store.appendMessages(T, [same(), { to: 'alice', entry: entry('bob', 'early', '2026-03-01T11:00:00.000Z') }])]);
      const inbox = await store.readInbox(T, 'alice');
      const triples = inbox.map((e) => `${e.from} ${e.timestamp} ${e.text}`);
      expect(new Set(triples).size).toBe(triples.length);
      const stamps = inbox.map((e) => Date.parse(e.timestamp));
      expect(stamps).toEqual([...stamps].sort((a, b) => a - b));
    });

    it('a refused call among concurrent ones changes nothing and fails alone', async () => {
      const good = Array.from({ length: 8 }, (_, i) => store.appendMessages(T, [{ to: i % 2 ? 'alice' : 'bob', entry: entry('team-lead', `g${i}`) }]));
      const bad = store.appendMessages(T, [{ to: 'alice', entry: entry('team-lead', 'bad') }, { to: 'nobody', entry: entry('team-lead', 'bad') }]);
      expect((await refusal(bad)).code).toBe('MEMBER_NOT_FOUND');
      const done = await Promise.all(good);
      expect(done.map((d) => d.value.messages[0]!.entry.text)).toEqual(Array.from({ length: 8 }, (_, i) => `g${i}`));
      const texts = [...(await store.readInbox(T, 'alice')), ...(await store.readInbox(T, 'bob'))].map((e) => e.text);
      expect(texts.sort()).toEqual(Array.from({ length: 8 }, (_, i) => `g${i}`).sort());
    });

    it('stores and journals every message of many concurrent writers exactly once', async () => {
      const writers = 8;
      const each = 25;
      await Promise.all(
        Array.from({ length: writers }, async (_, w) => {
          for (let i = 0; i < each; i++) {
            const t = await store.appendMessages(T, [{ to: 'alice', entry: entry(`w${w}`, `${w}-${i}`) }]);
            expect(t.value.messages.map((m) => m.entry.text)).toEqual([`${w}-${i}`]);
            expect(t.events).toHaveLength(1);
          }
        }),
      );
      const inbox = (await store.readInbox(T, 'alice')).map((e) => e.text);
      expect(inbox).toHaveLength(writers * each);
      expect(new Set(inbox).size).toBe(writers * each);
      // Each writer's own messages stay in the order it sent them.
      for (let w = 0; w < writers; w++) expect(inbox.filter((t) => t.startsWith(`${w}-`))).toEqual(Array.from({ length: each }, (_, i) => `${w}-${i}`));
      const journalled = (await store.readEvents(T)).events.flatMap((e) => (e.kind === 'message' && e.to === 'alice' ? [e.entry.text] : []));
      expect(journalled.sort()).toEqual([...inbox].sort());
    });
  });
}
