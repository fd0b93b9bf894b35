/**
 * The pure rules behind appends and takes, for any input (fast-check): timestamps assigned to an
 * append never decrease in file order and keep (from, timestamp, text) unique (issue 9 item 7);
 * a take never hands out an entry a live lease holds, and successive takes with acknowledgements
 * hand out every unread entry exactly once (issue 9 item 1).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assignTimestamps, entryKey, tripleKey } from '../../../src/domain/entries.js';
import { acknowledgedKeys, selectTake, type LeaseRecord } from '../../../src/domain/leases.js';
import type { InboxEntry } from '../../../src/protocol/inbox.js';

const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const entryArb = fc.record({ from: fc.constantFrom('a', 'b'), text: fc.constantFrom('x', 'y', 'z'), offset: fc.integer({ min: -5, max: 5 }) });
const toEntry = (e: { from: string; text: string; offset: number }, i: number): InboxEntry => ({ from: e.from, text: e.text, timestamp: new Date(T0 + e.offset).toISOString(), msg_id: `id-${i}` });

describe('assignTimestamps', () => {
  it('keeps timestamps non-decreasing and triples unique across any sequence of appends', () => {
    fc.assert(
      fc.property(fc.array(fc.array(entryArb, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 8 }), (batches) => {
        const inbox: InboxEntry[] = [];
        let n = 0;
        for (const batch of batches) {
          const incoming = batch.map((e) => toEntry(e, n++));
          assignTimestamps(inbox, incoming);
          inbox.push(...incoming);
        }
        const times = inbox.map((e) => Date.parse(e.timestamp));
        for (let i = 1; i < times.length; i++) expect(times[i]!).toBeGreaterThanOrEqual(times[i - 1]!);
        expect(new Set(inbox.map(tripleKey)).size).toBe(inbox.length);
      }),
    );
  });
});

describe('assignTimestamps on a foreign entry', () => {
  it('a colliding entry whose timestamp does not parse gets a valid one (it threw RangeError: Invalid time value)', () => {
    const existing: InboxEntry[] = [{ from: 'a', text: 'x', timestamp: 'not a time' }];
    const incoming: InboxEntry[] = [{ from: 'a', text: 'x', timestamp: 'not a time' }];
    assignTimestamps(existing, incoming);
    expect(incoming[0]!.timestamp).toBe('1970-01-01T00:00:00.000Z');
  });
});

describe('selectTake', () => {
  it('hands every unread entry out exactly once over takes and acknowledgements, never one a live lease holds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 }), fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 40 }), (count, limits) => {
        const entries: InboxEntry[] = Array.from({ length: count }, (_, i) => ({ from: 'a', text: `m${i}`, timestamp: new Date(T0 + i).toISOString(), msg_id: `id-${i}`, read: false }));
        let leases: LeaseRecord[] = [];
        const handed: string[] = [];
        limits.forEach((limit, round) => {
          const { taken } = selectTake(entries, leases, T0, limit);
          const held = new Set(leases.flatMap((l) => l.keys));
          for (const e of taken) expect(held.has(entryKey(e))).toBe(false);
          const lease = { id: `l${round}`, reader: 'r', until: T0 + 1000, keys: taken.map(entryKey) };
          handed.push(...lease.keys);
          leases = [...leases, lease];
          if (round % 2 === 1) {
            for (const l of leases) for (const k of acknowledgedKeys(l, leases, T0)) entries.find((e) => entryKey(e) === k)!.read = true;
            leases = [];
          }
        });
        expect(new Set(handed).size).toBe(handed.length);
        const rest = selectTake(entries, leases, T0).taken.map(entryKey);
        expect(new Set([...handed, ...rest]).size).toBe(handed.length + rest.length);
        expect(handed.length + rest.length).toBe(count);
      }),
    );
  });
});
