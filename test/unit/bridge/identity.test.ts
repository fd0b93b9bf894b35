import { describe, expect, it } from 'vitest';
import { byId, SharedIds, sharedId } from '../../../src/bridge/identity.js';
import type { InboxEntry } from '../../../src/protocol/inbox.js';

const entry = (i: number, msgId?: string): InboxEntry => ({ from: 'team-lead', text: `m-${i}`, timestamp: `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}.000Z`, read: i % 2 === 0, ...(msgId ? { msg_id: msgId } : {}) });

describe('SharedIds (the shared ids remembered between bridge steps)', () => {
  it('gives every entry the id sharedId gives it, on a fresh read and on a re-read of the same inbox', () => {
    const ids = new SharedIds('t');
    const first = [entry(1), entry(2, 'id-2'), entry(3)];
    expect([...ids.index('local', 'a', first)]).toEqual([...byId('t', 'a', first)]);
    // A re-read: new objects, one entry more; ids come from the triples, the same as hashing them.
    const again = [...first.map((e) => ({ ...e })), entry(4)];
    const index = ids.index('local', 'a', again);
    expect([...index.keys()]).toEqual(again.map((e) => sharedId('t', 'a', e)));
    expect(index.get(sharedId('t', 'a', entry(4)))).toBe(again[3]);
  });

  it('keeps ids apart per recipient and per side, and returns the same index for the same array', () => {
    const ids = new SharedIds('t');
    const list = [entry(1)];
    const a = ids.index('local', 'a', list);
    expect(ids.index('local', 'a', list)).toBe(a);
    expect([...ids.index('remote', 'b', [{ ...entry(1) }]).keys()]).toEqual([sharedId('t', 'b', entry(1))]);
    expect(sharedId('t', 'b', entry(1))).not.toBe(sharedId('t', 'a', entry(1)));
  });

  it('keeps the first entry of a repeated id, as byId does', () => {
    const ids = new SharedIds('t');
    const list = [entry(1, 'x'), { ...entry(2), msg_id: 'x' }];
    expect(ids.index('remote', 'a', list).get('x')).toBe(list[0]);
  });
});
