/**
 * Atomic file replacement: write a temporary file `<file>.<uint32>` in the same directory, fsync
 * it, then rename it over the file, so a reader sees the old or the new content and never a torn
 * one (reference §6 "How mailroom writes"). The temporary name has the shape write-file-atomic
 * uses, so `mailroom doctor` finds leftovers of either (a writer killed before its rename).
 *
 * A `beforeRename` check runs after the slow part (write + fsync) and immediately before the
 * file is replaced: lock holders confirm there that they still hold their lock, so a holder paused
 * during the write never replaces a newer file. Two more steps serve a holder paused *after* that
 * check (src/store/fs/locked-write.ts, docs/decisions.md "Locks"):
 * - `keepReplaced`: right before the rename, the file about to be replaced is hard-linked to
 *   `<file>.keep-<uint32>`, so a write that turns out to have landed after its lock was lost can
 *   put back or merge what it replaced;
 * - a rename whose temporary file is gone fails with {@link WriteCancelled}: a process that took
 *   the stale lock over deleted it (lock-takeover.ts), and nothing was written.
 * `exclusive` creates the file only if it does not exist (hard link, as `wx` but never empty).
 *
 * Any file system error (disk full, quota, permissions) is FILE_ACCESS naming the file, and the
 * temporary file is removed: nothing is half-written.
 *
 * The metadata calls (lstat, open, chmod, fstat, close, link, rename) are synchronous; the write and
 * the fsync go to the thread pool, so a long write or a slow disk never holds the event loop. Each
 * thread-pool round trip cost more than its system call here, on the way to the rename that a
 * woken teammate's watch waits for (issue 24; docs/decisions.md "Synchronous I/O in critical sections").
 */
import { randomUint32 } from '../../protocol/random.js';
import { closeSync, fchmodSync, fstatSync, fsync, linkSync, lstatSync, openSync, realpathSync, renameSync, statSync, writeFile as writeFd } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { promisify } from 'node:util';
import { MailroomError, fileWriteError, isErrno } from '../../errors.js';
import { FILE_MODE } from './modes.js';
import { testFreeze } from '../../test-freeze.js';

/** Options of {@link writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** Runs right before the file is replaced; if it throws, the temporary file is removed and nothing changes. */
  beforeRename?: () => Promise<void>;
  /** Hard-link the file being replaced to a keep path first (see {@link AtomicWriteResult.kept}). */
  keepReplaced?: boolean;
  /** Create the file only if it does not exist at that moment; else {@link FileExists}, nothing written. */
  exclusive?: boolean;
}

/** What {@link writeFileAtomic} did. */
export interface AtomicWriteResult {
  /** The file that was written: `path`, or the target of a symlink at `path`. */
  target: string;
  /** Inode number of the file now in place (to recognise it later). */
  ino: bigint;
  /**
   * With `keepReplaced`: a hard link to the file this write replaced (undefined when there was
   * none). The caller must remove it (or use it, then remove it).
   */
  kept: string | undefined;
}

/** The temporary file of a write was deleted before its rename (a takeover cancelled it): nothing was written. */
export class WriteCancelled extends Error {
  constructor(readonly path: string) {
    super(`The write of ${path} was cancelled: its temporary file was removed before the rename.`);
    this.name = 'WriteCancelled';
  }
}

/** An exclusive write found the file already there: nothing was written. */
export class FileExists extends Error {
  constructor(readonly path: string) {
    super(`${path} already exists.`);
    this.name = 'FileExists';
  }
}

/** The temporary sibling a write of `path` uses: `<path>.<decimal uint32>`. */
export function tempPathFor(path: string): string {
  return `${path}.${randomUint32()}`;
}

/** Matches a temporary sibling name and captures the target's name: `team-lead.json.123` → `team-lead.json`. */
export const TEMP_NAME = /^(.+)\.(\d+)$/;

/** Infix of the hard link to a replaced file: `<file>.keep-<uint32>`. */
export const KEEP_INFIX = '.keep-';

/** Matches a keep link's name and captures the target's name: `team-lead.json.keep-123` → `team-lead.json`. */
export const KEEP_NAME = /^(.+)\.keep-(\d+)$/;

/**
 * Replaces `path` with `text` (UTF-8) atomically, with mode 0600 (through a symlink: its target).
 * @throws FILE_ACCESS when the file is read-only or a file system error stops the write (naming
 * the file; it is then unchanged), whatever `beforeRename` throws, {@link WriteCancelled},
 * {@link FileExists}
 */
export async function writeFileAtomic(path: string, text: string, options: AtomicWriteOptions = {}): Promise<AtomicWriteResult> {
  const target = await writeTarget(path);
  const tmp = tempPathFor(target);
  const ino = await writeTemp(target, tmp, text);
  let renamed = false;
  let kept: string | undefined;
  try {
    await options.beforeRename?.();
    testFreeze('before-link', target);
    if (options.exclusive) {
      if (!(await linkNew(tmp, target))) throw new FileExists(target);
    } else if (!options.keepReplaced) {
      await renameTemp(tmp, target);
      renamed = true;
    } else {
      for (;;) {
        kept = await keepLink(target);
        if (kept !== undefined) {
          testFreeze('before-rename', target);
          await renameTemp(tmp, target);
          renamed = true;
          break;
        }
        if (await linkNew(tmp, target)) break; // nothing to replace: create it exclusively
      }
    }
    return { target, ino, kept };
  } catch (err) {
    if (kept !== undefined) await unlink(kept).catch(() => undefined);
    throw err;
  } finally {
    // After a link the temporary name is a second name of the file; after a failure, a leftover.
    if (!renamed) await unlink(tmp).catch(() => undefined);
  }
}

const writeToFd = promisify(writeFd);
const fsyncFd = promisify(fsync);

/** Writes, chmods and fsyncs the temporary file; @returns its inode number. */
async function writeTemp(target: string, tmp: string, text: string): Promise<bigint> {
  let fd: number;
  try {
    fd = openSync(tmp, 'wx', FILE_MODE);
  } catch (err) {
    throw fileWriteError(target, err);
  }
  let open = true;
  try {
    await writeToFd(fd, text, 'utf8');
    fchmodSync(fd, FILE_MODE);
    await fsyncFd(fd);
    const { ino } = fstatSync(fd, { bigint: true });
    open = false;
    closeSync(fd);
    return ino;
  } catch (err) {
    if (open) {
      try {
        closeSync(fd);
      } catch {
        // closing a file that failed: nothing more to do
      }
    }
    await unlink(tmp).catch(() => undefined);
    throw fileWriteError(target, err);
  }
}

/** `rename(tmp, target)`; a temporary file that vanished is {@link WriteCancelled}. */
async function renameTemp(tmp: string, target: string): Promise<void> {
  try {
    renameSync(tmp, target);
  } catch (err) {
    if (isErrno(err, 'ENOENT') && !exists(tmp)) throw new WriteCancelled(target);
    throw fileWriteError(target, err);
  }
}

/** `link(tmp, target)`: false when `target` exists; a vanished temporary file is {@link WriteCancelled}. */
async function linkNew(tmp: string, target: string): Promise<boolean> {
  try {
    linkSync(tmp, target);
    return true;
  } catch (err) {
    if (isErrno(err, 'EEXIST')) return false;
    if (isErrno(err, 'ENOENT') && !exists(tmp)) throw new WriteCancelled(target);
    throw fileWriteError(target, err);
  }
}

/** Hard-links `target` to a fresh keep path; undefined when `target` does not exist. */
async function keepLink(target: string): Promise<string | undefined> {
  for (;;) {
    const keep = `${target}${KEEP_INFIX}${randomUint32()}`;
    try {
      linkSync(target, keep);
      return keep;
    } catch (err) {
      if (isErrno(err, 'ENOENT')) return undefined;
      if (isErrno(err, 'EEXIST')) continue;
      throw fileWriteError(target, err);
    }
  }
}

/**
 * The file a write of `path` replaces: `path`, or the file a symlink at `path` points to (so the
 * link survives, as with Claude Code's in-place writes; a dangling link is replaced). A file without
 * its owner write bit is refused: a rename would replace it regardless of its mode.
 * @throws MailroomError FILE_ACCESS when the file is read-only
 */
async function writeTarget(path: string): Promise<string> {
  const link = quietly(() => lstatSync(path));
  const target = link?.isSymbolicLink() ? (quietly(() => realpathSync(path)) ?? path) : path;
  const s = target === path ? link : quietly(() => statSync(target));
  if (s && s.isFile() && (s.mode & 0o200) === 0) {
    throw new MailroomError('FILE_ACCESS', `${target} is read-only (mode ${(s.mode & 0o777).toString(8).padStart(4, '0')}): mailroom does not replace read-only files. Make it writable (chmod u+w) if it should change, then retry.`, {
      details: { path: target },
    });
  }
  return target;
}

/** True when `path` exists (a file, a link, anything): lstat succeeds. */
function exists(path: string): boolean {
  return quietly(() => lstatSync(path)) !== undefined;
}

/** `fn()`, or undefined when it throws (a path that is not there, or not readable). */
function quietly<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}
