/**
 * The one door for JSON files: read + parse, and atomic write (temp file in the same directory,
 * fsync, rename, mode 0600; see atomic-write.ts). Files are formatted as Claude Code writes
 * them: `JSON.stringify(value, null, 2)` with no trailing newline.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { MailroomError, isErrno } from '../../errors.js';
import { writeFileAtomic } from './atomic-write.js';
import { writeLocked, type LockedWriteOptions } from './locked-write.js';
import type { HeldLock } from './lock.js';
import { sleep } from './lock.js';

export { FILE_MODE, DIR_MODE } from './modes.js';

/** Serialises a value the way Claude Code formats its files. */
export function formatJson(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/**
 * Result of {@link readJsonFile}: the parsed value and the length of the text it came from
 * (characters), or `missing` when the file does not exist.
 */
export type JsonRead = { state: 'ok'; value: unknown; chars: number; text: string } | { state: 'missing' };

/**
 * How long an unparseable file is waited for before FILE_CORRUPT: the pauses (ms) between
 * re-reads, 60 ms in all. A Claude Code 2.1.109 writer truncates the file and then writes it, and a
 * watcher is woken by the truncation, so the first re-read comes at once: the write usually lands
 * within a millisecond (a fixed 20 ms pause made every such read, the bridge's among them, 20 ms
 * late). The later pauses double, so a slow writer still gets the whole window.
 */
export const REREAD_PAUSES_MS: readonly number[] = [1, 2, 4, 8, 16, 29];

/**
 * Reads and parses a JSON file. A file that does not parse is read again after each of
 * {@link REREAD_PAUSES_MS} (a Claude Code 2.1.109 writer rewrites in place, so an unlocked reader
 * can catch it half-written), then FILE_CORRUPT is thrown naming the file.
 * @param options.attempts reads at most (default: one more than the pauses; 1: no re-read)
 * @param options.known an earlier read of this file: when the text read now is the same, its parsed
 * value is returned as is, not parsed again (the same text parses to the same value; the caller must
 * own that value, since it gets the very same object)
 * @throws MailroomError FILE_CORRUPT when the file stays unparseable (or empty) for ~60 ms, or is a
 * directory or anything else but a regular file (a FIFO or a device would block or never end).
 */
export async function readJsonFile(path: string, options: { attempts?: number; known?: { text: string; value: unknown } | undefined } = {}): Promise<JsonRead> {
  const attempts = options.attempts ?? REREAD_PAUSES_MS.length + 1;
  let lastError: unknown;
  for (let i = 0; i < attempts; i++) {
    let text: string;
    try {
      text = await readRegularFile(path);
    } catch (err) {
      if (isErrno(err, 'ENOENT')) return { state: 'missing' };
      throw err;
    }
    if (options.known !== undefined && options.known.text === text) return { state: 'ok', value: options.known.value, chars: text.length, text };
    try {
      return { state: 'ok', value: JSON.parse(text) as unknown, chars: text.length, text };
    } catch (err) {
      lastError = err;
      if (i < attempts - 1) await sleep(REREAD_PAUSES_MS[i] ?? REREAD_PAUSES_MS.at(-1)!);
    }
  }
  throw corruptFile(path, lastError);
}

/**
 * Reads a regular file as UTF-8. Opened non-blocking, so a FIFO does not wait for a writer; a
 * directory, FIFO, socket or device is FILE_CORRUPT before anything is read. Synchronous calls:
 * state files are small and sit in the page cache, and every read of a transition is in its
 * critical section, where four thread-pool round trips per file cost more than the system calls
 * (docs/decisions.md "Synchronous I/O in critical sections").
 */
async function readRegularFile(path: string): Promise<string> {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const s = fstatSync(fd);
    if (s.isDirectory()) throw corruptFile(path, undefined, 'is a directory, not a file');
    if (!s.isFile()) throw corruptFile(path, undefined, 'is not a regular file');
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * Builds the FILE_CORRUPT error for `path`, on one line: a schema error (zod's `issues`) is
 * summarised as `field: problem; field: problem`, any other error by its message.
 */
export function corruptFile(path: string, cause: unknown, what = 'is not valid JSON'): MailroomError {
  const reason = cause instanceof Error ? `: ${describeCause(cause)}` : '';
  return new MailroomError(
    'FILE_CORRUPT',
    `${path} ${what}${reason}. mailroom will not overwrite it. Inspect or move the file aside ` +
      `(\`mailroom doctor --fix\` quarantines it), then retry.`,
    { cause, details: { path } },
  );
}

function describeCause(cause: Error): string {
  const issues = (cause as { issues?: unknown }).issues;
  if (!Array.isArray(issues)) return cause.message;
  return issues
    .map((i: { path?: readonly PropertyKey[]; message?: string }) => `${(i.path ?? []).map(String).join('.') || '(root)'}: ${i.message ?? 'invalid'}`)
    .join('; ');
}

/**
 * Writes `value` to `path` atomically. When `lock` is given, the write is the locked write step of
 * src/store/fs/locked-write.ts: the lock is confirmed right before the rename (lost: nothing is
 * written, LOCK_COMPROMISED) and again right after it; a write that landed after its lock was lost
 * is repaired (`options.recovery` merges back the other holder's change), so a paused holder never
 * silently overwrites a newer file.
 * @throws MailroomError LOCK_COMPROMISED, FILE_ACCESS (naming the file; nothing half-written)
 */
export async function writeJsonFile(path: string, value: unknown, lock?: HeldLock, options?: LockedWriteOptions): Promise<void> {
  await writeTextFile(path, formatJson(value), lock, options);
}

/** Atomic text write with the same guarantees as {@link writeJsonFile}. */
export async function writeTextFile(path: string, text: string, lock?: HeldLock, options?: LockedWriteOptions): Promise<void> {
  if (lock) await writeLocked(path, text, lock, options);
  else await writeFileAtomic(path, text);
}
