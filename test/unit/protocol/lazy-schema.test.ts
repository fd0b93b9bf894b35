/**
 * lazySchema (src/protocol/lazy-schema.ts): the stand-in behaves as the schema it builds, and
 * builds it once, on first use — not when the module defining it loads.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lazySchema } from '../../../src/protocol/lazy-schema.js';

describe('lazySchema', () => {
  it('builds nothing until first use, then once', () => {
    let builds = 0;
    const schema = lazySchema(() => (builds++, z.object({ a: z.string() })));
    expect(builds).toBe(0);
    expect(schema.parse({ a: 'x' })).toEqual({ a: 'x' });
    expect(schema.safeParse({ a: 1 }).success).toBe(false);
    expect(builds).toBe(1);
  });

  it('works as a schema: instanceof, embedded in others, extended, in unions, keys', () => {
    const inner = lazySchema(() => z.looseObject({ kind: z.literal('a'), n: z.number() }));
    const other = lazySchema(() => z.looseObject({ kind: z.literal('b') }));
    expect(inner instanceof z.ZodObject).toBe(true);
    expect(Object.keys(inner.shape)).toEqual(['kind', 'n']);
    const outer = z.object({ list: z.array(inner), opt: inner.optional() });
    expect(outer.parse({ list: [{ kind: 'a', n: 1, extra: true }] })).toEqual({ list: [{ kind: 'a', n: 1, extra: true }] });
    expect(() => outer.parse({ list: [{ kind: 'a', n: 'one' }] })).toThrow();
    expect(inner.extend({ m: z.string() }).parse({ kind: 'a', n: 1, m: 'x' })).toMatchObject({ m: 'x' });
    const union = z.discriminatedUnion('kind', [inner, other]);
    expect(union.parse({ kind: 'b' })).toEqual({ kind: 'b' });
    expect(union.safeParse({ kind: 'c' }).success).toBe(false);
  });
});
