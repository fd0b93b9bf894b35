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
 */
import { mkdir, rename, rm, rmdir } from 'node:fs/promises';
import { isErrno } from '../errors.js';
import { ageMs, dirId, type DirId } from './lock-dir.js';
import { DIR_MODE } from './modes.js';

/** Outcome of {@link takeOverIfStale}. */
export type TakeoverResult =
  /** The stale lock was removed: retry the `mkdir` now. */
  | 'removed'
  /** The lock directory is gone already: retry now. */
  | 'gone'
  /** The lock is live, or another process is taking it over: wait and retry. */
  | 'busy';

/** Suffix of the guard directory beside a lock directory. */
export const TAKEOVER_SUFFIX = '.takeover';
/** Infix of lock directories renamed aside for deletion (`<lock>.stale-<pid>-<ms>`). */
export const STALE_INFIX = '.stale-';

/** True when `id` (a lock directory's identity) is older than `staleMs`. */
export function isStale(id: DirId, staleMs: number): boolean {
  return ageMs(id) > staleMs;
}

/** Removes `lockDir` if its mtime is older than `staleMs`, under the takeover guard. */
export async function takeOverIfStale(lockDir: string, staleMs: number): Promise<TakeoverResult> {
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
    return (await discard(lockDir)) ? 'removed' : 'gone';
  } finally {
    await rmdir(guard).catch(() => undefined);
  }
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
