import { describe, expect, it } from 'vitest';
import { encodeCommand, ErrorReply, PushReply, RespDecoder } from '../../../src/store/redis/resp-codec.js';

/** Feeds `bytes` to a fresh decoder `step` bytes at a time; returns every value decoded. */
function decodeInSteps(bytes: Buffer, step: number): unknown[] {
  const decoder = new RespDecoder();
  const out: unknown[] = [];
  for (let i = 0; i < bytes.length; i += step) out.push(...decoder.push(bytes.subarray(i, i + step)));
  return out;
}

describe('RESP codec', () => {
  it('encodes a command as an array of bulk strings, lengths in bytes', () => {
    expect(encodeCommand(['SET', 'k', 'é']).toString()).toBe('*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$2\r\né\r\n');
  });

  it('decodes every RESP3 type as node-redis does by default', () => {
    const wire = [
      '+OK\r\n',
      '-ERR bad\r\n',
      ':42\r\n',
      '$4\r\nhé!\r\n',
      '$-1\r\n',
      '*2\r\n$1\r\na\r\n_\r\n',
      '*-1\r\n',
      '%1\r\n+key\r\n:1\r\n',
      '~1\r\n+m\r\n',
      '#t\r\n',
      ',1.5\r\n',
      '=7\r\ntxt:abc\r\n',
      '(123456789012345678901\r\n',
      '|1\r\n+ttl\r\n:3\r\n+after-attribute\r\n',
      '>3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$2\r\nhi\r\n',
    ].join('');
    const values = decodeInSteps(Buffer.from(wire), 1_000);
    expect(values.slice(0, 1)).toEqual(['OK']);
    expect(values[1]).toBeInstanceOf(ErrorReply);
    expect((values[1] as Error).message).toBe('ERR bad');
    expect(values.slice(2, 14)).toEqual([42, 'hé!', null, ['a', null], null, { key: 1 }, ['m'], true, 1.5, 'abc', '123456789012345678901', 'after-attribute']);
    expect(values[14]).toEqual(new PushReply(['message', 'ch', 'hi']));
  });

  it('decodes the same values whatever the chunking, multi-byte characters split across chunks included', () => {
    const big = 'ü'.repeat(50_000);
    const wire = Buffer.from(`*3\r\n$${Buffer.byteLength(big)}\r\n${big}\r\n:7\r\n*1\r\n$3\r\nend\r\n+PONG\r\n`);
    for (const step of [1, 3, 7, 1_024, 65_536, wire.length]) {
      expect(decodeInSteps(wire, step)).toEqual([[big, 7, ['end']], 'PONG']);
    }
  });

  it('decodes a reply of many small elements (an inbox read) the same whatever the chunking, nested aggregates split anywhere', () => {
    const rows = Array.from({ length: 400 }, (_, i) => `*3\r\n$${Buffer.byteLength(`{"text":"m-${i} é"}`)}\r\n{"text":"m-${i} é"}\r\n$1\r\n${i % 2}\r\n:${i}\r\n`);
    const wire = Buffer.from(`*2\r\n+ok\r\n*${rows.length + 1}\r\n$1\r\n7\r\n${rows.join('')}%2\r\n+a\r\n*0\r\n+b\r\n|1\r\n+ttl\r\n:3\r\n*-1\r\n$-1\r\n:5\r\n`);
    const expected = [['ok', ['7', ...Array.from({ length: 400 }, (_, i) => [`{"text":"m-${i} é"}`, String(i % 2), i])]], { a: [], b: null }, null, 5];
    for (const step of [1, 2, 5, 13, 100, 4_096, wire.length]) expect(decodeInSteps(wire, step)).toEqual(expected);
  });

  it('never writes into the chunks it is given', () => {
    const wire = Buffer.from('*2\r\n$3\r\nabc\r\n:1\r\n+x\r\n+yz\r\n');
    const copy = Buffer.from(wire);
    for (const step of [1, 3, 9]) {
      decodeInSteps(wire, step);
      expect(wire.equals(copy)).toBe(true);
    }
  });

  it('decodes the same values from a read buffer the caller writes over after each push (a socket\'s onread buffer)', () => {
    const rows = Array.from({ length: 200 }, (_, i) => `*2\r\n$${Buffer.byteLength(`{"text":"m-${i} é"}`)}\r\n{"text":"m-${i} é"}\r\n:${i}\r\n`);
    const wire = Buffer.from(`*${rows.length}\r\n${rows.join('')}+PONG\r\n$5\r\nhello\r\n`);
    const expected = [Array.from({ length: 200 }, (_, i) => [`{"text":"m-${i} é"}`, i]), 'PONG', 'hello'];
    for (const step of [1, 2, 5, 13, 100, 4_096, wire.length]) {
      const decoder = new RespDecoder();
      const reused = Buffer.alloc(step);
      const out: unknown[] = [];
      for (let i = 0; i < wire.length; i += step) {
        const n = wire.copy(reused, 0, i, i + step);
        out.push(...decoder.push(reused.subarray(0, n), true));
        reused.fill(0x2a); // the next read lands here: nothing kept may still point into it
      }
      expect(out).toEqual(expected);
    }
  });

  it('refuses bytes that are not RESP', () => {
    expect(() => new RespDecoder().push(Buffer.from('HTTP/1.1 400\r\n'))).toThrow(/Not a RESP reply/);
  });
});
