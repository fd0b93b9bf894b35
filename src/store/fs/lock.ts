/**
 * Locks compatible with Claude Code's: lock *directories* at the same paths (`<file>.lock`), in
 * proper-lockfile's on-disk protocol (mkdir to take, mtime refreshed every 5 s, stale after 10 s;
 * reference §6), so mailroom and Claude Code writers exclude each other.
 *
 * What differs from a plain `proper-lockfile` call (docs/decisions.md "Locks"):
 * - Retries wait 2 → 20 ms (doubling, ±50 % jitter) and keep going until `waitMs` (default 15 s,
 *   longer than the stale time), so a lock left by a killed process is always outlived and taken
 *   over. Claude Code's 5 → 100 ms makes a waiter that backed off miss the short (~2 ms) gaps
 *   between writers' holds; the shorter cap cut the 8-writer lock-wait tail (bench/20-writers).
 * - Stale takeover is guarded ({@link takeOverIfStale}), closing proper-lockfile's issue 121.
 * - A holder that may have lost its lock (paused past the stale time, or displaced) never writes,
 *   refreshes or removes it again: {@link HeldLock.assertHeld} is checked right before each write
 *   (see {@link DirLock}). It reports LOCK_COMPROMISED instead of crashing.
 * - A taker cancels the stale holder's unfinished write (lock-takeover.ts), and a write that lost
 *   its lock is redone: {@link withLock} runs its function again under a new lock when a write
 *   inside reports LOCK_COMPROMISED with nothing of it left in the file (src/store/fs/locked-write.ts).
 */
import { MailroomError, isErrno } from '../../errors.js';
import { DirLock } from './lock-dir.js';
import { discardIfSame, guardedFiles, takeOverIfStale, type TakeoverInfo, type TakeoverResult } from './lock-takeover.js';
import { monotonicMs } from './monotonic.js';

/** A lock is stale when its directory's mtime is older than this (ms); Claude Code's value. */
export const STALE_MS = 10_000;
/** How often a holder refreshes its lock's mtime (ms): half the stale time. */
export const UPDATE_MS = STALE_MS / 2;
/** Default total time to wait for a lock before LOCK_TIMEOUT (ms). */
export const DEFAULT_WAIT_MS = 15_000;
const MIN_RETRY_MS = 2;
const MAX_RETRY_MS = 20;

/** A lock currently held by this process. */
export interface HeldLock {
  /** The lock directory, e.g. `.../team-lead.json.lock`. */
  readonly lockDir: string;
  /** True once the lock is lost or may have been lost; a writer must not write then. */
  readonly compromised: boolean;
  /**
   * Resolves when the lock is still surely held; call right before writing (`what` names the
   * write in the error). @throws MailroomError LOCK_COMPROMISED
   */
  assertHeld(what: string): Promise<void>;
  /** Like {@link assertHeld}, but resolves false instead of throwing. */
  confirm(): Promise<boolean>;
  /**
   * Takes the same lock again, with the same options, after this one was (or may have been) lost:
   * the directory is removed first if it is still this holder's own. This handle stays lost.
   * @throws MailroomError LOCK_TIMEOUT
   */
  retake(): Promise<HeldLock>;
  /** Reports a human-readable line through the options' `onWarning` (e.g. what a repaired write merged back). */
  warn(message: string): void;
  /** Releases the lock if it is still ours. Never throws. */
  release(): Promise<void>;
  /**
   * Starts releasing the lock and returns at once (see `DirLock.releaseInBackground`): for a step
   * whose caller has work to do that does not need the lock gone. Never throws.
   */
  releaseInBackground(): void;
}

/** Options of {@link acquireLock}. */
export interface LockOptions {
  /** Give up with LOCK_TIMEOUT after this many ms (default {@link DEFAULT_WAIT_MS}). */
  waitMs?: number;
  /**
   * Stale time in ms (default: `$MAILROOM_LOCK_STALE_MS`, else {@link STALE_MS}). Only for tests
   * and benchmarks that must not wait 10 s after killing a holder: every process sharing the files
   * must use the same value, and Claude Code always uses 10 s.
   */
  staleMs?: number;
  /** Called with a human-readable line when a stale lock is taken over or a held lock is lost. */
  onWarning?: (message: string) => void;
  /** Called each time a lock is acquired, with how long the caller waited for it (ms); for metrics. */
  onAcquired?: (info: { lockDir: string; waitMs: number }) => void;
}

/**
 * Takes the lock directory `lockDir` guarding `target` (the target need not exist; its directory
 * must). @throws MailroomError LOCK_TIMEOUT when a live holder keeps it for `waitMs`, INTERNAL
 * when the directory is missing.
 */
export async function acquireLock(target: string, lockDir: string, options: LockOptions = {}): Promise<HeldLock> {
  const waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
  const staleMs = staleTimeOf(options);
  const start = monotonicMs();
  const deadline = Date.now() + waitMs;
  let delay = MIN_RETRY_MS;
  for (;;) {
    const held = await tryLock(target, lockDir, staleMs, options);
    if (held) {
      options.onAcquired?.({ lockDir, waitMs: monotonicMs() - start });
      return held;
    }
    const takeover = await takeOver(target, lockDir, staleMs, options);
    if (Date.now() >= deadline) throw lockTimeout(lockDir, waitMs);
    if (takeover !== 'busy') continue;
    await sleep(delay * (0.5 + Math.random()));
    delay = Math.min(delay * 2, MAX_RETRY_MS);
  }
}

/**
 * Takes the lock if it is free now (or stale: taken over as {@link acquireLock} does), without
 * waiting; undefined when a live holder has it.
 */
export async function tryAcquireLock(target: string, lockDir: string, options: LockOptions = {}): Promise<HeldLock | undefined> {
  const staleMs = staleTimeOf(options);
  const start = monotonicMs();
  for (let attempt = 0; attempt < 2; attempt++) {
    const held = await tryLock(target, lockDir, staleMs, options);
    if (held) {
      options.onAcquired?.({ lockDir, waitMs: monotonicMs() - start });
      return held;
    }
    if ((await takeOver(target, lockDir, staleMs, options)) === 'busy') return undefined;
  }
  return undefined;
}

/** One stale-takeover attempt, with its warning. */
async function takeOver(target: string, lockDir: string, staleMs: number, options: LockOptions): Promise<TakeoverResult> {
  const info: TakeoverInfo = { cancelledWrites: 0 };
  const takeover = await takeOverIfStale(lockDir, staleMs, guardedFiles(target), info);
  if (takeover === 'removed') {
    const cancelled = info.cancelledWrites > 0 ? `; cancelled its unfinished write (${info.cancelledWrites} temporary file${info.cancelledWrites === 1 ? '' : 's'})` : '';
    options.onWarning?.(`mailroom: took over a stale lock ${lockDir} (its holder stopped refreshing it over ${staleMs / 1000} s ago${cancelled})`);
  }
  return takeover;
}

/** How many times {@link withLock} runs its function when each run lost the lock (see there). */
export const LOCK_ATTEMPTS = 3;

/**
 * Runs `fn` while holding the lock, always releasing it afterwards. When a write in `fn` finds
 * that this lock was lost and leaves nothing of `fn`'s in the file (a retryable LOCK_COMPROMISED,
 * {@link isRetryableLoss}), `fn` runs again from the start under a fresh lock, up to
 * {@link LOCK_ATTEMPTS} times: it re-reads the file, so its change is applied on top of whatever
 * the other holder wrote. `fn` must therefore do nothing outside the store it cannot repeat.
 * `held`: a lock of `lockDir` already taken (e.g. by {@link tryAcquireLock}) for the first run.
 * `release`: `background` returns `fn`'s result without waiting for the lock's removal
 * ({@link HeldLock.releaseInBackground}; a woken teammate's take, src/store/fs/leases.ts).
 */
export async function withLock<T>(target: string, lockDir: string, options: LockOptions, fn: (lock: HeldLock) => Promise<T>, held?: HeldLock, release: 'wait' | 'background' = 'wait'): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const lock = attempt === 1 && held ? held : await acquireLock(target, lockDir, options);
    try {
      return await fn(lock);
    } catch (err) {
      if (attempt >= LOCK_ATTEMPTS || !isRetryableLoss(err, lockDir)) throw err;
      options.onWarning?.(`mailroom: ${err instanceof Error ? err.message : String(err)} Retrying under a new lock.`);
    } finally {
      if (release === 'background') lock.releaseInBackground();
      else await lock.release();
    }
  }
}

/**
 * LOCK_COMPROMISED for a write under `lockDir` that left nothing of its own in the file: the
 * operation may simply run again. `what` names the write; `reason` says what happened.
 */
export function lostLock(lockDir: string, what: string, reason: string): MailroomError {
  return new MailroomError('LOCK_COMPROMISED', `Lost the lock ${lockDir} before ${what} (${reason}). Nothing was written; retry.`, {
    details: { lockDir, retry: true },
  });
}

/** True when `err` is a {@link lostLock} error of `lockDir` (any lock when omitted). */
export function isRetryableLoss(err: unknown, lockDir?: string): boolean {
  return err instanceof MailroomError && err.code === 'LOCK_COMPROMISED' && err.details.retry === true && (lockDir === undefined || err.details.lockDir === lockDir);
}

async function tryLock(target: string, lockDir: string, staleMs: number, options: LockOptions): Promise<HeldLock | undefined> {
  const onLost = (reason: string) => options.onWarning?.(`mailroom: lost lock ${lockDir} while holding it (${reason})`);
  let lock: DirLock | undefined;
  try {
    lock = await DirLock.create(lockDir, staleMs, onLost);
  } catch (err) {
    if (isErrno(err, 'ENOENT')) {
      throw new MailroomError('INTERNAL', `Cannot lock ${target}: its directory does not exist (was the team deleted?).`, { cause: err });
    }
    throw err;
  }
  if (!lock) return undefined;
  const held = lock;
  return {
    lockDir,
    get compromised() {
      return held.lost;
    },
    assertHeld: (what) => held.assertHeld(what),
    confirm: () => held.confirm(),
    retake: async () => {
      await discardIfSame(lockDir, held.abandon());
      return acquireLock(target, lockDir, options);
    },
    warn: (message) => options.onWarning?.(message),
    release: () => held.release(),
    releaseInBackground: () => held.releaseInBackground(),
  };
}

/** The stale time these options give: `staleMs`, else `$MAILROOM_LOCK_STALE_MS` (≥ 1000), else {@link STALE_MS}. */
export function staleTimeOf(options: LockOptions): number {
  const fromEnv = Number(process.env.MAILROOM_LOCK_STALE_MS);
  return options.staleMs ?? (Number.isInteger(fromEnv) && fromEnv >= 1000 ? fromEnv : STALE_MS);
}

function lockTimeout(lockDir: string, waitMs: number): MailroomError {
  return new MailroomError(
    'LOCK_TIMEOUT',
    `Timed out after ${waitMs} ms waiting for lock ${lockDir}: another process holds it and keeps it fresh. ` +
      `Retry shortly; if no mailroom or Claude Code process is running, run \`mailroom doctor --fix\` or remove that directory.`,
    { details: { lockDir, waitMs } },
  );
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
