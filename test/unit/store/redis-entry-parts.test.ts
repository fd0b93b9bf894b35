/**
 * An inbox entry split around its timestamp for append-messages.lua (src/store/redis/codec.ts
 * `entryParts`): the parts put back together are the entry's JSON byte for byte, whatever the
 * entry holds — its text containing the stand-in used for the split included.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { InboxEntry } from '../../../src/protocol/inbox.js';
import { entryParts, entryPartsAround } from '../../../src/store/redis/codec.js';

const joined = (p: { pre: string; tsq: string; post: string }) => p.pre + p.tsq + p.post;

describe('entryParts', () => {
  it('puts any entry back together byte for byte, its timestamp cut out as a JSON string', () => {
    const entry = fc.record(
      { from: fc.string(), text: fc.string({ unit: 'binary' }), summary: fc.option(fc.string(), { nil: undefined }), timestamp: fc.string(), read: fc.boolean(), msg_id: fc.uuid(), extra: fc.jsonValue() },
      { requiredKeys: ['from', 'text', 'timestamp'] },
    );
    fc.assert(
      fc.property(entry, (e) => {
        const parts = entryParts(e as unknown as InboxEntry);
        expect(joined(parts)).toBe(JSON.stringify(e));
        expect(parts.tsq).toBe(JSON.stringify(e.timestamp));
      }),
      { numRuns: 500 },
    );
  });

  it('cuts at the timestamp when another field holds the stand-in', () => {
    const standIn = '\u0000stand-in\u0000';
    const e = { from: standIn, text: `before ${standIn} after`, timestamp: '2026-03-01T12:00:00.000Z', summary: standIn } as unknown as InboxEntry;
    const parts = entryPartsAround(e, standIn);
    expect(joined(parts)).toBe(JSON.stringify(e));
    expect(parts.tsq).toBe('"2026-03-01T12:00:00.000Z"');
    expect(parts.pre).toBe(JSON.stringify(e).slice(0, JSON.stringify(e).indexOf('"timestamp":') + '"timestamp":'.length));
  });
});
