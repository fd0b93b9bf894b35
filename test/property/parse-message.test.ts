/**
 * Properties of parseMessageText (protocol/structured.ts) over generated input: it never throws,
 * classifies every text by the rule (plain / structured / invalid / unknown), keeps plain text and
 * unknown objects untouched, and round-trips every message mailroom builds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { STRUCTURED_SCHEMAS, isStructuredType, parseMessageText } from '../../src/protocol/structured.js';
import { completeStructured } from '../../src/core/messages/send.js';

const anyText = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.json(), fc.jsonValue().map((v) => JSON.stringify(v) ?? ''));

describe('parseMessageText', () => {
  it('never throws and classifies every text by its JSON shape', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const parsed = parseMessageText(text);
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          value = undefined;
        }
        const isObject = typeof value === 'object' && value !== null && !Array.isArray(value) && text.trimStart().startsWith('{');
        const type = isObject ? (value as { type?: unknown }).type : undefined;
        if (typeof type !== 'string') {
          expect(parsed).toEqual({ kind: 'plain', text });
        } else if (!isStructuredType(type)) {
          expect(parsed).toEqual({ kind: 'unknown', type, raw: value });
        } else {
          expect(['structured', 'invalid']).toContain(parsed.kind);
          expect(parsed.kind === 'structured').toBe(STRUCTURED_SCHEMAS[type].safeParse(value).success);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('reads back every message completeStructured builds, field for field', () => {
    const str = fc.string({ unit: 'grapheme' });
    const message = fc.oneof(
      fc.record({ type: fc.constant('task_assignment'), taskId: str, subject: str, description: str, assignedBy: str }),
      fc.record({ type: fc.constant('shutdown_request'), requestId: str, reason: str }, { requiredKeys: ['type', 'requestId'] }),
      fc.record({ type: fc.constant('shutdown_rejected'), requestId: str, reason: str }),
      fc.record({ type: fc.constant('idle_notification'), idleReason: fc.constantFrom('available', 'interrupted', 'failed'), summary: str }, { requiredKeys: ['type'] }),
      fc.record({ type: fc.constant('mode_set_request'), mode: str }),
    );
    fc.assert(
      fc.property(message, str, fc.integer({ min: 0, max: 4_102_444_800_000 }), (input, from, now) => {
        const built = completeStructured(input, from, now);
        expect(parseMessageText(JSON.stringify(built))).toEqual({ kind: 'structured', message: built });
      }),
      { numRuns: 1000 },
    );
  });

  it('reports a known type with a required field missing as invalid, never as structured', () => {
    fc.assert(
      fc.property(fc.constantFrom('task_assignment', 'shutdown_rejected', 'shutdown_approved', 'plan_approval_request'), fc.string(), (type, from) => {
        const parsed = parseMessageText(JSON.stringify({ type, from }));
        expect(parsed.kind).toBe('invalid');
      }),
    );
  });
});
