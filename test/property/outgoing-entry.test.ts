/**
 * The append's fast check (protocol/inbox.ts `isInboxEntry`, which domain/outgoing-entry.ts runs before the schema) accepts only what Claude Code's
 * inbox entry schema accepts: over generated entries, near-entries and odd values, whenever it says
 * yes the schema says yes, and the check as a whole (fast path, then schema) refuses exactly what
 * the schema refuses.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkOutgoingMessage } from '../../src/domain/outgoing-entry.js';
import { InboxEntrySchema, isInboxEntry } from '../../src/protocol/inbox.js';

const odd = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.constant(Number.NaN), fc.constant(Infinity), fc.array(fc.string(), { maxLength: 2 }), fc.object({ maxDepth: 1 }), fc.bigInt());
const fieldValue = (good: fc.Arbitrary<unknown>) => fc.oneof({ weight: 4, arbitrary: good }, { weight: 1, arbitrary: odd });
const entry = fc.record(
  {
    from: fieldValue(fc.string()),
    text: fieldValue(fc.string()),
    summary: fieldValue(fc.string()),
    timestamp: fieldValue(fc.date({ noInvalidDate: true }).map((d) => d.toISOString())),
    color: fieldValue(fc.string()),
    read: fieldValue(fc.boolean()),
    type: fieldValue(fc.constant('message')),
    msgV: fieldValue(fc.integer()),
    msg_id: fieldValue(fc.uuid()),
    in_reply_to: fieldValue(fc.string()),
  },
  { requiredKeys: [] },
);
const anything = fc.oneof({ weight: 6, arbitrary: entry }, { weight: 1, arbitrary: odd });

describe('the append fast check', () => {
  it('says yes only where the schema says yes, and the whole check refuses what the schema refuses', () => {
    let fast = 0;
    fc.assert(
      fc.property(anything, (value) => {
        const schema = InboxEntrySchema.safeParse(value).success;
        if (isInboxEntry(value)) {
          fast++;
          expect(schema).toBe(true);
        }
        let refused = false;
        try {
          checkOutgoingMessage({ to: 'a', entry: value });
        } catch {
          refused = true;
        }
        expect(refused).toBe(!schema);
      }),
      { numRuns: 2000 },
    );
    // The generator reaches the fast path often enough for the property to mean something.
    expect(fast).toBeGreaterThan(50);
  });

  it('takes an entry as makeInboxEntry builds it, and leaves a getter or an object with a bad field to the schema', () => {
    expect(isInboxEntry({ from: 'a', text: 't', timestamp: '2026-01-01T09:00:00.000Z', msgV: 1, msg_id: 'x', type: 'message', read: false })).toBe(true);
    expect(isInboxEntry({ from: 'a', text: 't', timestamp: '2026-01-01T09:00:00.000Z', msgV: Number.NaN })).toBe(false);
    expect(isInboxEntry({ from: 'a', text: 't', timestamp: 5 })).toBe(false);
    expect(isInboxEntry([])).toBe(false);
    expect(() => checkOutgoingMessage({ to: 'a', entry: { from: 'a', text: 't', timestamp: 5 } })).toThrow(/timestamp must be an ISO-8601 string/);
  });
});
