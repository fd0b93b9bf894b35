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
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
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

const TYPES = new Set('+-:$=!*~>%|_#,('.split('').map((c) => c.charCodeAt(0)));

/**
 * Decodes replies from a byte stream. `push(chunk)` returns every value completed by that chunk, in
 * order. Work is linear in the bytes received: a resumable scan over the new bytes only (element
 * headers, bulk lengths, the counts of open aggregates) finds where a reply ends, and the reply is
 * decoded once, when its last byte has arrived. Bytes gather in one buffer grown by doubling, never
 * re-concatenated per chunk. (Before, a reply of many small elements — an inbox of 1 000 entries,
 * ~450 KB in dozens of socket reads — was re-decoded from its start on every chunk.)
 */
export class RespDecoder {
  /** Received bytes; [start, end) not yet decoded. */
  private buf: Buffer = Buffer.alloc(0);
  private start = 0;
  private end = 0;
  /** Where the scan of the reply in progress (from `start`) goes on. */
  private scanAt = 0;
  /** Elements still to come in each open aggregate of the reply in progress, innermost last. */
  private open: number[] = [];
  /** Whether `buf` is the decoder's own (else a caller's chunk, read only). */
  private owned = false;
  private pos = 0;

  /**
   * Adds `chunk`; returns the values it completed. `reused`: the caller writes over `chunk` after
   * this call (a socket's read buffer), so bytes of a reply not yet complete are copied out.
   * @throws Error on bytes that are not RESP
   */
  push(chunk: Buffer, reused = false): unknown[] {
    this.append(chunk);
    const out: unknown[] = [];
    for (;;) {
      const stop = this.scan();
      if (stop < 0) break;
      this.pos = this.start;
      out.push(this.value());
      this.start = stop;
      this.scanAt = stop;
    }
    if (this.start === this.end) this.start = this.end = this.scanAt = 0;
    else if (reused && !this.owned) this.own(this.end - this.start);
    return out;
  }

  private append(chunk: Buffer): void {
    if (this.end === 0) {
      this.buf = chunk; // nothing pending: decode the chunk in place, never written to
      this.owned = false;
      this.end = chunk.length;
      return;
    }
    if (!this.owned || this.end + chunk.length > this.buf.length) this.own(this.end - this.start + chunk.length);
    chunk.copy(this.buf, this.end);
    this.end += chunk.length;
  }

  /** Moves the undecoded bytes [start, end) to the front of a buffer of the decoder's own with room for `room` bytes (grown by doubling). */
  private own(room: number): void {
    const live = this.end - this.start;
    const grown = Buffer.alloc(Math.max(2 * room, 16_384));
    this.buf.copy(grown, 0, this.start, this.end);
    this.scanAt -= this.start;
    this.start = 0;
    this.end = live;
    this.buf = grown;
    this.owned = true;
  }

  /** Scans on from `scanAt`; @returns the offset just past the reply in progress once complete, else -1. */
  private scan(): number {
    const view = this.buf.subarray(0, this.end);
    for (;;) {
      const p = this.scanAt;
      if (p >= this.end) return -1;
      const type = view[p]!;
      if (!TYPES.has(type)) throw new Error(`Not a RESP reply (type byte ${JSON.stringify(String.fromCharCode(type))}).`);
      const eol = lineEnd(view, p + 1, this.end);
      if (eol < 0) return -1;
      let next = eol + 2;
      let children = 0;
      const n = type === 0x2b || type === 0x2d || type === 0x5f || type === 0x23 || type === 0x2c || type === 0x28 ? 0 : intAt(view, p + 1, eol);
      switch (type) {
        case 0x24: // $
        case 0x3d: // =
        case 0x21: // !
          if (n >= 0) next += n + 2;
          if (next > this.end) return -1;
          break;
        case 0x2a: // *
        case 0x7e: // ~
        case 0x3e: // >
          children = n > 0 ? n : 0;
          break;
        case 0x25: // %
          children = 2 * n;
          break;
        case 0x7c: // | attributes, then the value they annotate: one element for the count
          children = 2 * n + 1;
          break;
      }
      this.scanAt = next;
      if (children > 0) {
        this.open.push(children);
        continue;
      }
      for (;;) {
        const top = this.open.length - 1;
        if (top < 0) return this.scanAt;
        if (--this.open[top]! > 0) break;
        this.open.pop();
      }
    }
  }

  private line(): string {
    const end = lineEnd(this.buf, this.pos, this.end);
    if (end < 0) throw INCOMPLETE;
    const text = this.buf.toString('utf8', this.pos, end);
    this.pos = end + 2;
    return text;
  }

  /** The decimal integer of the header line at `pos` (a length or a count), read from its bytes. */
  private count(): number {
    const end = lineEnd(this.buf, this.pos, this.end);
    if (end < 0) throw INCOMPLETE;
    const n = intAt(this.buf, this.pos, end);
    this.pos = end + 2;
    return n;
  }

  private bulk(length: number): string {
    const end = this.pos + length;
    if (end + 2 > this.end) throw INCOMPLETE;
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
    if (this.pos >= this.end) throw INCOMPLETE;
    const code = this.buf[this.pos]!;
    this.pos++;
    // Lengths and counts are read from the bytes (most of a store reply's headers); other heads as text.
    switch (code) {
      case 0x24: { // $
        const n = this.count();
        return n === -1 ? null : this.bulk(n);
      }
      case 0x2a: { // *
        const n = this.count();
        return n === -1 ? null : this.items(n);
      }
      case 0x3d: // =
        return this.bulk(this.count()).slice(4);
      case 0x21: // !
        return new ErrorReply(this.bulk(this.count()));
      case 0x7e: // ~
        return this.items(this.count());
      case 0x3e: // >
        return new PushReply(this.items(this.count()));
    }
    const type = String.fromCharCode(code);
    const head = this.line();
    switch (type) {
      case '+':
        return head;
      case '-':
        return new ErrorReply(head);
      case ':':
        return Number(head);
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

/** The offset of the CR of the first CRLF in `buf` from `from` (before `end`), or -1. */
function lineEnd(buf: Buffer, from: number, end: number): number {
  for (let i = from; i + 1 < end; i++) if (buf[i] === 0x0d && buf[i + 1] === 0x0a) return i;
  return -1;
}

/** The decimal integer (an optional '-', then digits) in `buf` between `from` and `to`; NaN when it is not one. */
function intAt(buf: Buffer, from: number, to: number): number {
  let i = from;
  const negative = buf[i] === 0x2d;
  if (negative) i++;
  if (i >= to) return NaN;
  let n = 0;
  for (; i < to; i++) {
    const d = buf[i]! - 0x30;
    if (d < 0 || d > 9) return NaN;
    n = n * 10 + d;
  }
  return negative ? -n : n;
}
