/**
 * RESP (the Redis serialization protocol, versions 2 and 3: https://redis.io/docs/latest/develop/reference/protocol-spec/)
 * for the store's own client (./resp-client.ts): encoding a command, and decoding replies from the
 * bytes a socket delivers. Replies decode as node-redis decodes them by default: bulk and verbatim
 * strings as UTF-8 strings, integers and doubles as numbers, big numbers as strings, maps as plain
 * objects, sets as arrays, RESP3 null and RESP2 null bulk/array as null; an error reply becomes an
 * {@link ErrorReply} value (returned, not thrown). Attributes (`|`) are skipped.
 */

/** An error reply of the server (`-ERR …`, `!<len>`); its message is the server's text. */
export class ErrorReply extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ErrorReply';
  }
}

/** A RESP3 push message (`>`): pub/sub deliveries and (un)subscribe confirmations. */
export class PushReply {
  constructor(readonly items: unknown[]) {}
}

const CRLF = '\r\n';

/** One command as RESP bytes: an array of bulk strings. */
export function encodeCommand(args: readonly string[]): Buffer {
  let head = `*${args.length}${CRLF}`;
  const parts: Buffer[] = [];
  for (const arg of args) {
    head += `$${Buffer.byteLength(arg)}${CRLF}${arg}${CRLF}`;
    if (head.length > 16_384) {
      parts.push(Buffer.from(head));
      head = '';
    }
  }
  parts.push(Buffer.from(head));
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

/** Thrown inside the decoder when the buffer ends before the value does (never escapes {@link RespDecoder}). */
const INCOMPLETE = Symbol('incomplete');

/**
 * Decodes replies from a byte stream. `push(chunk)` returns every value completed by that chunk, in
 * order. A reply split across chunks is decoded once, when its last byte has arrived; a large bulk
 * string tells the decoder how many bytes to wait for, so a big reply is not re-scanned per chunk.
 */
export class RespDecoder {
  private chunks: Buffer[] = [];
  private length = 0;
  /** Bytes the reply in progress needs at least (0: unknown, try on every chunk). */
  private need = 0;
  private buf: Buffer = Buffer.alloc(0);
  private pos = 0;

  /** Adds `chunk`; returns the values it completed. @throws Error on bytes that are not RESP */
  push(chunk: Buffer): unknown[] {
    this.chunks.push(chunk);
    this.length += chunk.length;
    if (this.length < this.need) return [];
    this.buf = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.length);
    this.chunks = [this.buf];
    const out: unknown[] = [];
    let start = 0;
    for (;;) {
      if (start >= this.buf.length) break;
      this.pos = start;
      this.need = 0;
      let value: unknown;
      try {
        value = this.value();
      } catch (err) {
        if (err !== INCOMPLETE) throw err;
        break;
      }
      out.push(value);
      start = this.pos;
    }
    const rest = start === 0 ? this.buf : this.buf.subarray(start);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.length = rest.length;
    if (this.need > 0) this.need -= start;
    return out;
  }

  private line(): string {
    const end = this.buf.indexOf(CRLF, this.pos, 'latin1');
    if (end < 0) throw INCOMPLETE;
    const text = this.buf.toString('utf8', this.pos, end);
    this.pos = end + 2;
    return text;
  }

  private bulk(length: number): string {
    const end = this.pos + length;
    if (end + 2 > this.buf.length) {
      this.need = end + 2;
      throw INCOMPLETE;
    }
    const text = this.buf.toString('utf8', this.pos, end);
    this.pos = end + 2;
    return text;
  }

  private items(count: number): unknown[] {
    const items = new Array<unknown>(count);
    for (let i = 0; i < count; i++) items[i] = this.value();
    return items;
  }

  private value(): unknown {
    if (this.pos >= this.buf.length) throw INCOMPLETE;
    const type = String.fromCharCode(this.buf[this.pos]!);
    this.pos++;
    const head = this.line();
    switch (type) {
      case '+':
        return head;
      case '-':
        return new ErrorReply(head);
      case ':':
        return Number(head);
      case '$':
        return head === '-1' ? null : this.bulk(Number(head));
      case '=':
        return this.bulk(Number(head)).slice(4);
      case '!':
        return new ErrorReply(this.bulk(Number(head)));
      case '*':
        return head === '-1' ? null : this.items(Number(head));
      case '~':
        return this.items(Number(head));
      case '>':
        return new PushReply(this.items(Number(head)));
      case '%': {
        const object: Record<string, unknown> = {};
        for (let i = Number(head); i > 0; i--) {
          const key = this.value();
          object[String(key)] = this.value();
        }
        return object;
      }
      case '|':
        for (let i = Number(head) * 2; i > 0; i--) this.value();
        return this.value();
      case '_':
        return null;
      case '#':
        return head === 't';
      case ',':
        return head === 'inf' ? Infinity : head === '-inf' ? -Infinity : Number(head);
      case '(':
        return head;
      default:
        throw new Error(`Not a RESP reply (type byte ${JSON.stringify(type)}).`);
    }
  }
}
