/**
 * `TeamStore.readInboxChanges` (issue 24 item 4, the bridge's follower read): whatever happened to
 * an inbox between two reads, the changes the second read reports, applied to the first read, give
 * exactly what `readInbox` reads — appends and read marks as a delta or as a full read, anything
 * else (archived, set aside, turned unread) as a full read. Both backends implement it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { entryKey } from '../../src/domain/entries.js';
import type { InboxEntry } from '../../src/protocol/inbox.js';
import type { InboxChanges, InboxMark, TeamStore } from '../../src/store/team-store.js';
import { entry, teamConfig, teammate, type ContractBackend } from './team-store.contract.js';

const T = 'follow';

/** The entries a follower holds after applying `changes` to `before`. */
export function applyChanges(before: readonly InboxEntry[], changes: InboxChanges): InboxEntry[] {
  if (changes.full) return changes.entries;
  const read = new Set(changes.read);
  return [...before.map((e) => (read.has(entryKey(e)) ? { ...e, read: true } : e)), ...changes.appended];
}

/** Runs the readInboxChanges cases against `backend`. */
export function inboxChangesContract(name: string, backend: ContractBackend): void {
  describe(`TeamStore contract, readInboxChanges: ${name}`, () => {
    let store: TeamStore;
    let held: InboxEntry[];
    let mark: InboxMark | undefined;
    const follow = async (): Promise<InboxChanges> => {
      const changes = await store.readInboxChanges!(T, 'alice', mark);
      held = applyChanges(held, changes);
      mark = changes.mark;
      expect(held).toEqual(await store.readInbox(T, 'alice'));
      return changes;
    };
    const send = (...texts: string[]) => store.appendMessages(T, texts.map((text) => ({ to: 'alice', entry: entry('bob', text) })));
    beforeEach(async () => {
      store = await backend.open();
      await store.createTeam(teamConfig(T));
      for (const m of ['alice', 'bob']) await store.addMember(T, teammate(T, m));
      held = [];
      mark = undefined;
    });
    afterEach(async () => {
      await store.close();
      await backend.dispose?.(store);
    });

    it('is implemented, and reads in full without a mark (also an inbox that does not exist yet)', async () => {
      expect(typeof store.readInboxChanges).toBe('function');
      expect((await follow()).full).toBe(true);
      await send('a', 'b');
      mark = undefined;
      const c = await follow();
      expect(c.full).toBe(true);
      expect(held.map((e) => e.text)).toEqual(['a', 'b']);
    });

    it('reports appends since the mark as a delta of exactly the appended entries, in order', async () => {
      await send('a');
      await follow();
      await send('b', 'c');
      await send('d');
      const c = await follow();
      expect(c.full).toBe(false);
      expect(c.full ? [] : c.appended.map((e) => e.text)).toEqual(['b', 'c', 'd']);
      const none = await follow();
      expect(none.full ? 'full' : [none.appended.length, none.read.length]).toEqual([0, 0]);
    });

    it('reports read marks and appends after them, as a delta or a full read', async () => {
      await send('a', 'b', 'c');
      await follow();
      await store.markRead(T, 'alice', [entryKey(held[1]!)]);
      await send('d');
      await follow();
      expect(held.map((e) => e.read)).toEqual([false, true, false, false]);
      const lease = await store.takeUnread(T, 'alice', { reader: 'r1' });
      await follow();
      await store.acknowledge(T, 'alice', lease.value.id);
      await follow();
      expect(held.every((e) => e.read)).toBe(true);
    });

    it('reads in full when entries left the inbox or it was set aside, and follows on from there', async () => {
      await send('a', 'b');
      await follow();
      await store.markRead(T, 'alice', held.map(entryKey));
      await store.archiveInbox(T, 'alice');
      await send('c');
      expect((await follow()).full).toBe(true);
      expect(held.map((e) => e.text)).toEqual(['c']);
      await store.setInboxAside(T, 'alice');
      await send('d');
      expect((await follow()).full).toBe(true);
      await send('e');
      expect((await follow()).full).toBe(false);
      expect(held.map((e) => e.text)).toEqual(['d', 'e']);
    });

    it('follows many appends and marks in any order without ever differing from readInbox', async () => {
      for (let i = 0; i < 30; i++) {
        if (i % 3 === 0) await send(`m${i}`, `n${i}`);
        else if (i % 3 === 1 && held.length > 0) await store.markRead(T, 'alice', [entryKey(held[(i * 7) % held.length]!)]);
        else await send(`m${i}`);
        if (i % 2 === 0) await follow();
      }
      await follow();
    });
  });
}
