/**
 * Random ids (msg_id UUIDs, temp-file suffixes, claim and lease tokens) from the kernel's CSPRNG,
 * read from `/dev/urandom` — the source node:crypto's own generator draws from — without loading
 * node:crypto: its load costs ~3 ms, a tenth of what a one-shot `mailroom team send` spends
 * beyond Node's own start (docs/performance.md). Bytes are read 512 at a time and handed out once
 * each. Where `/dev/urandom` cannot be read (not a Unix), node:crypto serves instead.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import type * as NodeCrypto from 'node:crypto';
import { createRequire } from 'node:module';

/** Bytes read from the kernel at a time. */
const POOL_BYTES = 512;

let pool: Buffer | undefined;
let used = POOL_BYTES;

/** Fills `buf` with random bytes from /dev/urandom, or node:crypto's `randomFillSync` where that fails. */
function fill(buf: Buffer): Buffer {
  let fd: number | undefined;
  try {
    fd = openSync('/dev/urandom', 'r');
    for (let at = 0; at < buf.length; ) {
      const n = readSync(fd, buf, at, buf.length - at, null);
      if (n <= 0) throw new Error('short read from /dev/urandom');
      at += n;
    }
    return buf;
  } catch {
    const crypto = createRequire(import.meta.url)('node:crypto') as typeof NodeCrypto;
    return crypto.randomFillSync(buf);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** `length` fresh random bytes (a new Buffer; no byte is handed out twice). */
export function randomBytes(length: number): Buffer {
  if (length > POOL_BYTES) return fill(Buffer.alloc(length));
  if (!pool || used + length > POOL_BYTES) {
    pool = fill(Buffer.alloc(POOL_BYTES));
    used = 0;
  }
  const out = Buffer.from(pool.subarray(used, used + length));
  pool.fill(0, used, used + length);
  used += length;
  return out;
}

/** A random RFC 9562 version-4 UUID, lower case (`xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx`), as `crypto.randomUUID` makes. */
export function randomUUID(): string {
  const b = randomBytes(16);
  b[6] = ((b[6] as number) & 0x0f) | 0x40;
  b[8] = ((b[8] as number) & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** A random integer in [0, 2³²), uniform. */
export function randomUint32(): number {
  return randomBytes(4).readUInt32BE(0);
}
