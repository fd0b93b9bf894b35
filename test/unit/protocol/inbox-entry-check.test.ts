/**
 * isInboxEntry (src/protocol/inbox.ts) answers what InboxEntrySchema.safeParse(value).success
 * answers, on every value an inbox file can hold: the files store's readers use it instead of zod
 * (issue 24), so an entry zod would keep must never be dropped, nor one it rejects kept.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { InboxEntrySchema, isInboxEntry } from '../../../src/protocol/inbox.js';

const bySchema = (value: unknown): boolean => InboxEntrySchema.safeParse(value).success;

/** Any JSON value, and the field values an entry's fields could hold instead of the right ones. */
const anyField = fc.oneof(fc.constant(undefined), fc.constant(null), fc.boolean(), fc.string(), fc.double(), fc.integer(), fc.array(fc.string(), { maxLength: 2 }), fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }));
const FIELDS = ['from', 'text', 'timestamp', 'summary', 'color', 'read', 'type', 'msgV', 'msg_id'] as const;
const right: Record<(typeof FIELDS)[number], fc.Arbitrary<unknown>> = {
  from: fc.string(),
  text: fc.string(),
  timestamp: fc.string(),
  summary: fc.string(),
  color: fc.string(),
  read: fc.boolean(),
  type: fc.string(),
  msgV: fc.oneof(fc.integer(), fc.double()),
  msg_id: fc.string(),
};

/** An entry-like object: each field right, wrong, or absent, with extra keys (the schema keeps unknown keys). */
const entryLike = fc
  .record(Object.fromEntries(FIELDS.map((f) => [f, fc.oneof(right[f], anyField, fc.constant('absent' as const))])) as Record<(typeof FIELDS)[number], fc.Arbitrary<unknown>>, { requiredKeys: [] })
  .chain((o) => fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }).map((extra) => ({ ...extra, ...Object.fromEntries(Object.entries(o).filter(([, v]) => v !== 'absent')) })));

describe('isInboxEntry', () => {
  it('agrees with InboxEntrySchema on entry-like objects (each field right, wrong or absent)', () => {
    fc.assert(fc.property(entryLike, (value) => {
      expect(isInboxEntry(value)).toBe(bySchema(value));
    }), { numRuns: 5_000 });
  });

  it('agrees with InboxEntrySchema on any JSON value, and on entries parsed back from JSON', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => {
      expect(isInboxEntry(value)).toBe(bySchema(value));
    }), { numRuns: 3_000 });
    fc.assert(fc.property(entryLike, (value) => {
      const parsed: unknown = JSON.parse(JSON.stringify(value));
      expect(isInboxEntry(parsed)).toBe(bySchema(parsed));
    }), { numRuns: 2_000 });
  });

  it('keeps what Claude Code writes and rejects the shapes zod rejects', () => {
    const entry = { from: 'team-lead', text: 'hi', summary: 's', timestamp: '2026-01-01T00:00:00.000Z', color: 'blue', msgV: 1, msg_id: 'm1', type: 'message', read: false, in_reply_to: 'x' };
    for (const value of [
      entry,
      { from: 'a', text: 'b', timestamp: 'c' },
      { ...entry, read: undefined },
      Object.assign(Object.create(null) as object, entry),
      Object.create(entry) as object, // inherited fields: zod reads them as well
      [entry],
      Object.assign([], entry),
      null,
      'entry',
      { ...entry, msgV: Number.POSITIVE_INFINITY },
      { ...entry, msgV: Number.NaN },
      { ...entry, msgV: '1' },
      { ...entry, read: 'true' },
      { ...entry, read: null },
      { ...entry, summary: null },
      { text: 'b', timestamp: 'c' },
    ]) {
      expect(isInboxEntry(value)).toBe(bySchema(value));
    }
    expect(isInboxEntry(entry)).toBe(true);
    expect(isInboxEntry({ ...entry, read: 'true' })).toBe(false);
  });
});
