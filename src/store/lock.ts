/**
 * Locks compatible with Claude Code's: proper-lockfile lock *directories* at the same paths
 * (`<file>.lock`), refreshed every 5 s, stale after 10 s (reference §6), so mailroom and Claude Code
 * writers exclude each other.
 *
 * Two things differ from a plain `lockfile.lock()` call:
 * - Retries wait 5 → 100 ms (doubling) and keep going until `waitMs` (default 15 s, longer than the
 *   stale time), so a lock left by a killed process is always outlived and taken over.
 * - Stale takeover is guarded: only the holder of `<lock>.takeover` (an exclusive mkdir) may remove
 *   a stale lock, and it re-checks staleness first. This closes proper-lockfile's takeover race
 *   (its issue 121: two processes both remove the stale lock, then both "hold" it).
 * A lock that is compromised while held (the holder was paused past the stale time and someone took
 * over) never crashes the process: {@link HeldLock.compromised} turns true and writers check it.
 */
import { mkdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import lockfile from 'proper-lockfile';
import { MailroomError, isErrno } from '../errors.js';

/** A lock is stale when its directory's mtime is older than this (ms); Claude Code's value. */
export const STALE_MS = 10_000;
/** How often a holder refreshes its lock's mtime (ms). */
export const UPDATE_MS = 5_000;
/** Default total time to wait for a lock before LOCK_TIMEOUT (ms). */
export const DEFAULT_WAIT_MS = 15_000;
const MIN_RETRY_MS = 5;
const MAX_RETRY_MS = 100;
/** proper-lockfile must never take over on its own: our guarded takeover does it. */
const NEVER_STALE_MS = 2 ** 31 - 1;

/** A lock currently held by this process. */
export interface HeldLock {
  /** The lock directory, e.g. `.../team-lead.json.lock`. */
  readonly lockDir: string;
  /** True once the lock was lost (taken over by another process); a writer must not write then. */
  readonly compromised: boolean;
  /** Releases the lock. Never throws (a lock lost meanwhile is simply gone). */
  release(): Promise<void>;
}

/** Options of {@link acquireLock}. */
export interface LockOptions {
  /** Give up with LOCK_TIMEOUT after this many ms (default {@link DEFAULT_WAIT_MS}). */
  waitMs?: number;
  /** Called with a human-readable line when a stale lock is taken over or a held lock is lost. */
  onWarning?: (message: string) => void;
}

/**
 * Takes the lock directory `lockDir` (guarding `target`; the target need not exist).
 * @throws MailroomError LOCK_TIMEOUT when the lock stays held by a live holder for `waitMs`.
 */
export async function acquireLock(target: string, lockDir: string, options: LockOptions = {}): Promise<HeldLock> {
  const deadline = Date.now() + (options.waitMs ?? DEFAULT_WAIT_MS);
  let delay = MIN_RETRY_MS;
  for (;;) {
    const held = await tryLock(target, lockDir, options);
    if (held) return held;
    if (await takeOverIfStale(lockDir)) {
      options.onWarning?.(`mailroom: took over a stale lock ${lockDir} (its holder stopped refreshing it over ${STALE_MS / 1000} s ago)`);
      continue;
    }
    if (Date.now() >= deadline) throw lockTimeout(lockDir, options.waitMs ?? DEFAULT_WAIT_MS);
    await sleep(delay);
    delay = Math.min(delay * 2, MAX_RETRY_MS);
  }
}

/** Runs `fn` while holding the lock, always releasing it afterwards. */
export async function withLock<T>(target: string, lockDir: string, options: LockOptions, fn: (lock: HeldLock) => Promise<T>): Promise<T> {
  const lock = await acquireLock(target, lockDir, options);
  try {
    return await fn(lock);
  } finally {
    await lock.release();
  }
}

async function tryLock(target: string, lockDir: string, options: LockOptions): Promise<HeldLock | undefined> {
  let compromised = false;
  try {
    const release = await lockfile.lock(target, {
      lockfilePath: lockDir,
      realpath: false,
      stale: NEVER_STALE_MS,
      update: UPDATE_MS,
      retries: 0,
      onCompromised: (err: Error) => {
        compromised = true;
        options.onWarning?.(`mailroom: lost lock ${lockDir} while holding it (${err.message}); the write was abandoned`);
      },
    });
    return {
      lockDir,
      get compromised() {
        return compromised;
      },
      release: async () => {
        if (compromised) return;
        await release().catch(() => undefined);
      },
    };
  } catch (err) {
    if (isErrno(err, 'ELOCKED')) return undefined;
    if (isErrno(err, 'ENOENT')) {
      throw new MailroomError('INTERNAL', `Cannot lock ${target}: its directory does not exist.`, { cause: err });
    }
    throw err;
  }
}

/**
 * Removes `lockDir` if it is stale, under the exclusive `<lockDir>.takeover` guard.
 * Returns true when the stale lock was removed (the caller should retry at once).
 */
async function takeOverIfStale(lockDir: string): Promise<boolean> {
  if (!(await isStale(lockDir))) return false;
  const guard = `${lockDir}.takeover`;
  try {
    await mkdir(guard);
  } catch (err) {
    if (!isErrno(err, 'EEXIST')) return false;
    // A takeover guard left by a killed process would block takeovers forever.
    if (await isStale(guard)) await rmdir(guard).catch(() => undefined);
    return false;
  }
  try {
    if (!(await isStale(lockDir))) return false;
    const doomed = `${lockDir}.stale-${process.pid}-${Date.now()}`;
    await rename(lockDir, doomed);
    await rm(doomed, { recursive: true, force: true });
    return true;
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return true;
    throw err;
  } finally {
    await rmdir(guard).catch(() => undefined);
  }
}

async function isStale(dir: string): Promise<boolean> {
  try {
    const s = await stat(dir);
    return s.mtimeMs < Date.now() - STALE_MS;
  } catch {
    return false;
  }
}

function lockTimeout(lockDir: string, waitMs: number): MailroomError {
  return new MailroomError(
    'LOCK_TIMEOUT',
    `Timed out after ${waitMs} ms waiting for lock ${lockDir}: another process holds it and keeps it fresh. ` +
      `Retry shortly; if no mailroom or Claude Code process is running, remove that directory.`,
    { details: { lockDir, waitMs } },
  );
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
