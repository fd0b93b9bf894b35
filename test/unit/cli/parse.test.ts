import { thrown } from '../../helpers/thrown.js';
import { describe, expect, it } from 'vitest';
import { parseIds, parseMetadata } from '../../../src/cli/parse.js';

describe('parseIds', () => {
  it('is undefined when the option was not given', () => {
    expect(parseIds(undefined, '--blocked-by')).toBeUndefined();
  });
  it.each([
    ['1', ['1']],
    ['1,2', ['1', '2']],
    ['1, 2 3', ['1', '2', '3']],
    [['1,2', '3'], ['1', '2', '3']],
    [7, ['7']],
    ['12,,13,', ['12', '13']],
  ] as const)('%j → %j', (value, ids) => {
    expect(parseIds(value as string | string[] | number, '--blocked-by')).toEqual(ids);
  });
  it.each(['0', '-1', '1.5', 'x', '01', '1e3', '../1'])('refuses %j naming the flag and the form', (value) => {
    const err = thrown(() => parseIds(value, '--add-blocks'));
    expect(err.code).toBe('INVALID_ARGUMENT');
    expect(err.message).toContain('--add-blocks');
    expect(err.message).toContain(`"${value}"`);
    expect(err.message).toContain('positive integers');
  });
});

describe('parseMetadata', () => {
  it('is undefined when the option was not given', () => {
    expect(parseMetadata(undefined)).toBeUndefined();
  });
  it('takes JSON values as JSON and anything else as a string', () => {
    expect(parseMetadata(['n=3', 'b=true', 'gone=null', 'obj={"a":[1]}', 'name=alice', 'cmd=wc -l data.csv', 'empty='])).toEqual({
      n: 3,
      b: true,
      gone: null,
      obj: { a: [1] },
      name: 'alice',
      cmd: 'wc -l data.csv',
      empty: '',
    });
  });
  it('accepts a single string and splits at the first "="', () => {
    expect(parseMetadata('expr=a=b')).toEqual({ expr: 'a=b' });
  });
  it('keeps the order given; the last value of a repeated key wins', () => {
    const m = parseMetadata(['b=1', 'a=2', 'b=3'])!;
    expect(Object.keys(m)).toEqual(['b', 'a']);
    expect(m.b).toBe(3);
  });
  it.each(['novalue', '=v'])('refuses %j with the expected form', (pair) => {
    const err = thrown(() => parseMetadata([pair]));
    expect(err.code).toBe('INVALID_ARGUMENT');
    expect(err.message).toContain('key=value');
  });
  it.each(['__proto__', 'constructor', 'prototype'])('refuses the key %s', (key) => {
    const err = thrown(() => parseMetadata([`${key}={"polluted":true}`]));
    expect(err.code).toBe('INVALID_ARGUMENT');
    expect(err.message).toContain(key);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
