/**
 * codec.ts `flatCopy`: the second copy of an appended entry (the caller's beside its event's) is
 * what parsing the stored JSON again gives, for any document, or undefined (parse again); and the
 * two copies never share an object.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flatCopy } from '../../../src/store/redis/codec.js';
import type { InboxEntry } from '../../../src/protocol/inbox.js';

const key = fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'toString', '0', '10', '-1', 'read', 'timestamp'));
const flatValue = fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
const value = fc.oneof({ weight: 5, arbitrary: flatValue }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) });

describe('flatCopy', () => {
  it('equals a second JSON.parse of the document whenever it gives a copy, key order included', () => {
    let copied = 0;
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 8 }), (object) => {
        const doc = JSON.stringify(object);
        const parsed = JSON.parse(doc) as InboxEntry;
        const copy = flatCopy(parsed);
        if (copy === undefined) return;
        copied++;
        const again = JSON.parse(doc) as unknown;
        expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
        expect(Object.keys(copy)).toEqual(Object.keys(again as object));
        expect(copy).toStrictEqual(again);
        expect(copy).not.toBe(parsed);
      }),
      { numRuns: 1000 },
    );
    expect(copied).toBeGreaterThan(100);
  });

  it('gives undefined for an entry holding an object or array, and keeps an own __proto__ as an own key', () => {
    expect(flatCopy(JSON.parse('{"from":"a","meta":{"x":1}}') as InboxEntry)).toBeUndefined();
    expect(flatCopy(JSON.parse('{"from":"a","tags":[]}') as InboxEntry)).toBeUndefined();
    const proto = flatCopy(JSON.parse('{"__proto__":null,"from":"a"}') as InboxEntry) as Record<string, unknown>;
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.keys(proto)).toEqual(['__proto__', 'from']);
    expect(flatCopy(JSON.parse('{"from":"a","read":false,"n":1.5,"z":null}') as InboxEntry)).toStrictEqual({ from: 'a', read: false, n: 1.5, z: null });
  });
});
