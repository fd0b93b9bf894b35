/**
 * Taking over a stale lock directory without proper-lockfile's race (its issue 121: two processes
 * both see the lock stale, both remove it, both `mkdir` in turn and both believe they hold it).
 *
 * Only the holder of the guard `<lock>.takeover` (an exclusive `mkdir`) may remove a stale lock,
 * and it removes it only if it is still the *same* directory it judged stale (inode + mtime), by
 * renaming it to `<lock>.stale-<pid>-<ms>` and deleting that. A guard older than the stale time
 * (its holder was killed) is cleared the same way. Should a race still displace a live lock (a
 * Claude Code process, which takes over without the guard), its holder notices at its next write
 * ({@link DirLock.assertHeld}) and writes nothing.
 *
 * **Cancelling the stale holder's write.** A holder is stale because it stopped (killed, or paused:
 * SIGSTOP, a frozen VM, swap). A paused one may have passed its last ownership check and be about to
 * `rename` its temporary file over the file, which would undo every write made after the takeover.
 * So before it removes the stale lock, the taker deletes the temporary files (`<file>.<uint32>`) of
 * the files that lock guards that are older than the holder's check margin: a paused holder's
 * `rename` then fails (ENOENT) instead of landing, and it retries under a new lock
 * (src/store/fs/locked-write.ts). A temporary file younger than the margin cannot be the stale
 * holder's (docs/decisions.md "Locks"), so a concurrent inbox creation keeps its own.
 */
import { lstat, mkdir, readdir, rename, rm, rmdir, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isErrno } from '../../errors.js';
import { TEMP_NAME } from './atomic-write.js';
import { ageMs, budgetMarginMs, dirId, type DirId } from './lock-dir.js';
import { DIR_MODE } from './modes.js';

/** Outcome of {@link takeOverIfStale}. */
export type TakeoverResult =
  /** The stale lock was removed: retry the `mkdir` now. */
  | 'removed'
  /** The lock directory is gone already: retry now. */
  | 'gone'
  /** The lock is live, or another process is taking it over: wait and retry. */
  | 'busy';

/** Details of a takeover that removed a stale lock, for the caller's warning. */
export interface TakeoverInfo {
  /** Temporary files of the stale holder that were deleted, cancelling its unfinished write. */
  cancelledWrites: number;
}

/** Suffix of the guard directory beside a lock directory. */
export const TAKEOVER_SUFFIX = '.takeover';
/** Infix of lock directories renamed aside for deletion (`<lock>.stale-<pid>-<ms>`). */
export const STALE_INFIX = '.stale-';

/** True when `id` (a lock directory's identity) is older than `staleMs`. */
export function isStale(id: DirId, staleMs: number): boolean {
  return ageMs(id) > staleMs;
}

/** True when one of `lockDirs` is a lock directory that is not stale (someone holds it). */
export async function anyLockHeld(lockDirs: string[], staleMs: number): Promise<boolean> {
  for (const dir of lockDirs) {
    const id = await dirId(dir);
    if (id && !isStale(id, staleMs)) return true;
  }
  return false;
}

/**
 * The files written under the lock of `target`: `target` itself, and for a task list's `.lock`
 * anchor also the list's `.highwatermark` (task files are created exclusively, never replaced,
 * under that lock, so a stale holder cannot overwrite one).
 */
export function guardedFiles(target: string): string[] {
  return basename(target) === '.lock' ? [target, join(dirname(target), '.highwatermark')] : [target];
}

/**
 * Removes `lockDir` if its mtime is older than `staleMs`, under the takeover guard, after
 * cancelling the unfinished writes of `guarded` files (see the module comment). `info` receives
 * what was cancelled.
 */
export async function takeOverIfStale(lockDir: string, staleMs: number, guarded: readonly string[] = [], info?: TakeoverInfo): Promise<TakeoverResult> {
  const seen = await dirId(lockDir);
  if (!seen) return 'gone';
  if (!isStale(seen, staleMs)) return 'busy';
  const guard = `${lockDir}${TAKEOVER_SUFFIX}`;
  try {
    await mkdir(guard, { mode: DIR_MODE });
  } catch (err) {
    if (!isErrno(err, 'EEXIST')) throw err;
    await clearIfStale(guard, staleMs);
    return 'busy';
  }
  try {
    const again = await dirId(lockDir);
    if (!again) return 'gone';
    if (again.ino !== seen.ino || again.mtimeNs !== seen.mtimeNs) return 'busy';
    const cancelled = await cancelPendingWrites(guarded, budgetMarginMs(staleMs));
    if (info) info.cancelledWrites = cancelled;
    return (await discard(lockDir)) ? 'removed' : 'gone';
  } finally {
    await rmdir(guard).catch(() => undefined);
  }
}

/**
 * Removes `lockDir` under the takeover guard if it is still the directory `id` describes (its
 * holder gave it up after being paused past its budget; nobody took it over). @returns true when
 * removed; false when it is someone else's, gone, or a takeover is under way.
 */
export async function discardIfSame(lockDir: string, id: DirId): Promise<boolean> {
  const guard = `${lockDir}${TAKEOVER_SUFFIX}`;
  try {
    await mkdir(guard, { mode: DIR_MODE });
  } catch {
    return false;
  }
  try {
    const now = await dirId(lockDir);
    return now?.ino === id.ino && now.mtimeNs === id.mtimeNs ? await discard(lockDir) : false;
  } catch {
    return false;
  } finally {
    await rmdir(guard).catch(() => undefined);
  }
}

/**
 * Deletes the temporary files (`<file>.<uint32>`) of `files` whose mtime is older than
 * `olderThanMs`. @returns how many were deleted.
 */
export async function cancelPendingWrites(files: readonly string[], olderThanMs: number): Promise<number> {
  let count = 0;
  const byDir = new Map<string, Set<string>>();
  for (const f of files) byDir.set(dirname(f), (byDir.get(dirname(f)) ?? new Set()).add(basename(f)));
  for (const [dir, names] of byDir) {
    for (const name of await readdir(dir).catch(() => [])) {
      const target = TEMP_NAME.exec(name)?.[1];
      if (target === undefined || !names.has(target)) continue;
      const path = join(dir, name);
      const s = await lstat(path).catch(() => undefined);
      if (!s?.isFile() || Date.now() - s.mtimeMs <= olderThanMs) continue;
      await unlink(path).then(
        () => count++,
        () => undefined,
      );
    }
  }
  return count;
}

/** Removes a guard or lock directory that is older than `staleMs`; true when it did. */
export async function clearIfStale(dir: string, staleMs: number): Promise<boolean> {
  const id = await dirId(dir);
  if (!id || !isStale(id, staleMs)) return false;
  return discard(dir);
}

/** Renames `dir` aside, then deletes it; false when it was already gone. */
export async function discard(dir: string): Promise<boolean> {
  const doomed = `${dir}${STALE_INFIX}${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  try {
    await rename(dir, doomed);
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return false;
    throw err;
  }
  await rm(doomed, { recursive: true, force: true });
  return true;
}
