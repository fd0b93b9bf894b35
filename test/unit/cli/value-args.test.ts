/**
 * src/cli/value-args.ts: which arguments are values although they begin with a dash, and that
 * the originals come back byte for byte, in parsed arguments and in messages.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { END, optionPart, putValuesAside } from '../../../src/cli/value-args.js';

describe('putValuesAside', () => {
  it('leaves options, option=value spellings, a lone "-" and plain words as they are', () => {
    const input = ['team', 'send', 'bob', 'hi', '--summary', 'x', '--summary=two words', '-', '-h', '--json'];
    expect(putValuesAside(input).argv).toEqual(input);
  });

  it('puts aside a dash word with whitespace before any "=", and everything after the first --', () => {
    const v = putValuesAside(['team', 'send', '- item\n- two', '-1 is wrong', '--a b=c', '--', '--json', '--', 'x']);
    expect(v.argv.slice(0, 2)).toEqual(['team', 'send']);
    expect(v.argv).toHaveLength(9);
    expect(v.argv[5]).toBe(END);
    for (const a of v.argv.slice(2).filter((a) => a !== END)) expect(a.startsWith('-')).toBe(false);
    const args = { _: v.argv.slice(0, 2), text: v.argv[2], list: v.argv.slice(3).filter((a) => a !== END) };
    expect(v.restore(args)).toEqual({ _: ['team', 'send'], text: '- item\n- two', list: ['-1 is wrong', '--a b=c', '--json', '--', 'x'] });
  });

  it('restores the originals in a parser message', () => {
    const v = putValuesAside(['send', '--', '-x']);
    expect(v.text(`Unknown argument: ${v.argv[2]!}`)).toBe('Unknown argument: -x');
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
        expect(v.restore({ all: v.argv.filter((a) => a !== END) }).all).toEqual(expected);
      }),
    );
  });

  it('-- becomes an option nobody can type, which restore removes and a message calls --', () => {
    const v = putValuesAside(['task', 'add', '--metadata', 'k=v', '--', 'title']);
    expect(v.argv).toEqual(['task', 'add', '--metadata', 'k=v', END, expect.stringMatching(/^\u0000\d+\u0000$/)]);
    const key = END.slice(2, -1);
    const args: Record<string, unknown> = { _: ['task', 'add', v.argv[5]], metadata: ['k=v'], [key]: '' };
    expect(v.restore(args)).toEqual({ _: ['task', 'add', 'title'], metadata: ['k=v'] });
    expect(v.text(`Unknown argument: ${END}, ${END.slice(2, -1)}`)).toBe('Unknown argument: --, --');
  });

  it('options are read only before the first --', () => {
    expect(optionPart(['team', 'send', 'a', '--json', '--', '--help'])).toEqual(['team', 'send', 'a', '--json']);
    expect(optionPart(['x', '--json'])).toEqual(['x', '--json']);
    const v = putValuesAside(['--', '--get-yargs-completions', 'x']);
    expect(v.argv).not.toContain('--get-yargs-completions');
  });

  it('a number option yargs made NaN gets back the value as typed', () => {
    const v = putValuesAside(['log', '--tail', '-1 x']);
    expect(v.restore({ _: ['log'], tail: Number.NaN }).tail).toBe('-1 x');
    const w = putValuesAside(['log', '--tail=abc']);
    expect(w.restore({ _: ['log'], tail: Number.NaN }).tail).toBe('abc');
  });
});
