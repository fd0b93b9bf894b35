/**
 * A small regular file read whole and synchronously, with its type and size judged on the file
 * that was opened (not on a `stat` of the path before it: a FIFO swapped in between would block the
 * read). Opened with O_NONBLOCK, so opening a FIFO returns at once; `fstat` then refuses it. Used by
 * the identity files (keys.ts, the team key), read on every send and guard.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';

/** What {@link readSmallFile} found. */
export type SmallFile =
  | { kind: 'missing' }
  /** Not a regular file (a FIFO, a device, a directory): nothing was read. */
  | { kind: 'special' }
  /** Larger than the limit: nothing was read. `size` in bytes. */
  | { kind: 'large'; size: number }
  | { kind: 'ok'; text: string; stats: Stats };

/**
 * Reads `path` as UTF-8 when it is a regular file of at most `maxBytes` bytes.
 * @throws what `open` and `read` throw but ENOENT (e.g. EACCES)
 */
export function readSmallFile(path: string, maxBytes: number): SmallFile {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw err;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return { kind: 'special' };
    if (stats.size > maxBytes) return { kind: 'large', size: stats.size };
    return { kind: 'ok', text: readFileSync(fd, 'utf8'), stats };
  } finally {
    closeSync(fd);
  }
}
