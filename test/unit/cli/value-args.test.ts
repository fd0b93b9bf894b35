/**
 * src/cli/value-args.ts: which arguments are values although they begin with a dash, and that
 * the originals come back byte for byte, in parsed arguments and in messages.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { putValuesAside } from '../../../src/cli/value-args.js';

describe('putValuesAside', () => {
  it('leaves options, option=value spellings, a lone "-" and plain words as they are', () => {
    const input = ['team', 'send', 'bob', 'hi', '--summary', 'x', '--summary=two words', '-', '-h', '--json'];
    expect(putValuesAside(input).argv).toEqual(input);
  });

  it('puts aside a dash word with whitespace before any "=", and everything after the first --', () => {
    const v = putValuesAside(['team', 'send', '- item\n- two', '-1 is wrong', '--a b=c', '--', '--json', '--', 'x']);
    expect(v.argv.slice(0, 2)).toEqual(['team', 'send']);
    expect(v.argv).toHaveLength(8);
    for (const a of v.argv.slice(2)) expect(a.startsWith('-')).toBe(false);
    const args = { _: v.argv.slice(0, 2), text: v.argv[2], list: v.argv.slice(3) };
    expect(v.restore(args)).toEqual({ _: ['team', 'send'], text: '- item\n- two', list: ['-1 is wrong', '--a b=c', '--json', '--', 'x'] });
  });

  it('restores the originals in a parser message', () => {
    const v = putValuesAside(['send', '--', '-x']);
    expect(v.text(`Unknown argument: ${v.argv[1]!}`)).toBe('Unknown argument: -x');
  });

  it('leaves a TAB press line alone', () => {
    const input = ['--get-yargs-completions', 'mailroom', 'team', '--', '- a'];
    expect(putValuesAside(input).argv).toEqual(input);
  });

  it('any argument list: every original comes back, in order, after the parser sees no dash value', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.constantFrom('--', '-', '- a', '--x', '--x=a b', '-1 b'))), (input) => {
        const v = putValuesAside(input);
        const cut = input.indexOf('--');
        const expected = cut < 0 ? input : [...input.slice(0, cut), ...input.slice(cut + 1)];
        expect(v.restore({ all: [...v.argv] }).all).toEqual(expected);
      }),
    );
  });
});
