/**
 * One lock directory held by this process: the on-disk protocol of proper-lockfile, which Claude
 * Code uses (reference §6): the lock is a `mkdir`, and the holder refreshes the directory's mtime
 * every `stale/2`; a directory older than `stale` may be taken over by anyone.
 *
 * Unlike proper-lockfile, a holder here knows *which* directory it made (inode + mtime, read back
 * after every refresh) and when it last confirmed it. It counts as holding the lock only while
 * (a) less than `stale − margin` ms passed since that confirmation, so no one can have judged it
 * stale yet, and (b) the directory at the path is still its own. {@link DirLock.assertHeld} checks
 * both right before every write; a holder that fails them never refreshes, writes or removes the
 * directory again (proper-lockfile would still `rmdir` it on release or at exit, removing the lock
 * of whoever took over).
 */
import { rmdir, stat, utimes } from 'node:fs/promises';
import { mkdirSync, rmdirSync, statSync } from 'node:fs';
import { MailroomError, isErrno } from '../../errors.js';
import { DIR_MODE } from './modes.js';

/** Identity of a lock directory: its inode and exact mtime (ns). */
export interface DirId {
  ino: bigint;
  mtimeNs: bigint;
}

/** Stats `dir` exactly; undefined when it does not exist. */
export async function dirId(dir: string): Promise<DirId | undefined> {
  try {
    const s = await stat(dir, { bigint: true });
    return { ino: s.ino, mtimeNs: s.mtimeNs };
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return undefined;
    throw err;
  }
}

/**
 * {@link dirId} with one synchronous `stat`: what a holder checks right before each write and at
 * release, inside its critical section (docs/decisions.md "Synchronous I/O in critical sections").
 */
export function dirIdSync(dir: string): DirId | undefined {
  const s = statSync(dir, { bigint: true, throwIfNoEntry: false });
  return s ? { ino: s.ino, mtimeNs: s.mtimeNs } : undefined;
}

/**
 * Margin below the stale time (ms) within which a holder stops counting on its lock: clock
 * granularity and a late timer. A holder confirms its lock only while its last refresh is younger
 * than `staleMs − margin`, so anything it wrote before a confirmation is at least this old when
 * someone may judge the lock stale (lock-takeover.ts relies on that).
 */
export function budgetMarginMs(staleMs: number): number {
  return Math.max(250, staleMs / 10);
}

/** Milliseconds since the mtime recorded in `id`. */
export function ageMs(id: DirId): number {
  return Date.now() - Number(id.mtimeNs / 1_000_000n);
}

/**
 * Locks held by this process, removed at exit, and on SIGINT/SIGTERM/SIGHUP when nothing else
 * handles the signal (a CLI interrupted with Ctrl-C inside its few-ms critical section). A process
 * killed with SIGKILL leaves its lock to go stale (10 s) and be taken over.
 */
const heldAtExit = {
  locks: new Set<DirLock>(),
  add(lock: DirLock): void {
    // First in line: a `once` listener added earlier (watch's stop) removes itself before the
    // later listeners run, so a listener behind it would count itself alone and re-raise.
    if (this.locks.size === 0) for (const s of SIGNALS) process.prependListener(s, releaseOnSignal);
    this.locks.add(lock);
  },
  delete(lock: DirLock): void {
    if (this.locks.delete(lock) && this.locks.size === 0) for (const s of SIGNALS) process.off(s, releaseOnSignal);
  },
};
const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
process.on('exit', () => {
  for (const lock of [...heldAtExit.locks]) lock.releaseSync();
});

/**
 * Releases every held lock, then dies of the signal as the process would have without this
 * listener. When another listener handles the signal (the runtime's graceful stop, watch's stop),
 * it does nothing: it runs first ({@link heldAtExit}), so the count still includes them.
 */
function releaseOnSignal(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return;
  for (const lock of [...heldAtExit.locks]) lock.releaseSync();
  for (const s of SIGNALS) process.off(s, releaseOnSignal);
  process.kill(process.pid, signal);
}

/**
 * Lock directories of this process whose removal was started by {@link DirLock.releaseInBackground}
 * and has not finished: this process takes such a lock again only once it is removed (a `mkdir`
 * before that would find it and back off as if another process held it).
 */
const releasing = new Map<string, Promise<void>>();

/** A lock directory this process created. */
export class DirLock {
  private id: DirId;
  private lostReason: string | undefined;
  private refreshing: Promise<void> | undefined;
  private readonly timer: NodeJS.Timeout;

  private constructor(
    readonly lockDir: string,
    id: DirId,
    private readonly staleMs: number,
    private readonly onLost: (reason: string) => void,
  ) {
    this.id = id;
    this.timer = setInterval(() => {
      this.refreshing ??= this.refresh().finally(() => (this.refreshing = undefined));
    }, staleMs / 2);
    this.timer.unref();
    heldAtExit.add(this);
  }

  /**
   * `mkdir lockDir`; undefined when it already exists (someone holds it). The `mkdir` and the
   * `stat` of its identity are synchronous, as are the holder's checks before each write and its
   * release: each was a thread-pool round trip on every locked step — a send's append and a woken
   * teammate's take among them (issue 24) — costing more than the system call. The refresh, off
   * every step's path, stays asynchronous.
   */
  static async create(lockDir: string, staleMs: number, onLost: (reason: string) => void): Promise<DirLock | undefined> {
    const pending = releasing.get(lockDir);
    if (pending) await pending;
    try {
      mkdirSync(lockDir, { mode: DIR_MODE });
    } catch (err) {
      if (isErrno(err, 'EEXIST')) return undefined;
      throw err;
    }
    const id = dirIdSync(lockDir);
    return id ? new DirLock(lockDir, id, staleMs, onLost) : undefined;
  }

  /** True once the lock is known lost or may have been lost. */
  get lost(): boolean {
    return this.lostReason !== undefined || !this.withinBudget();
  }

  /**
   * Confirms the lock is still ours, right before a write.
   * @throws MailroomError LOCK_COMPROMISED when it is lost or may have been taken over.
   */
  async assertHeld(what: string): Promise<void> {
    await this.refreshing;
    if (this.lostReason === undefined && !this.withinBudget()) this.markLost('this process was paused past the stale time');
    if (this.lostReason === undefined) {
      const now = dirIdSync(this.lockDir);
      if (!now || now.ino !== this.id.ino || now.mtimeNs !== this.id.mtimeNs) this.markLost('another process took it over');
    }
    if (this.lostReason !== undefined) {
      throw new MailroomError('LOCK_COMPROMISED', `Lost the lock ${this.lockDir} before ${what} (${this.lostReason}). Nothing was written; retry.`, {
        details: { lockDir: this.lockDir, retry: true },
      });
    }
  }

  /**
   * Like {@link assertHeld} but answers instead of throwing: true while the lock is surely ours.
   * Used right after a rename, to learn whether the write landed while the lock was still held.
   */
  async confirm(): Promise<boolean> {
    return this.assertHeld('confirming').then(
      () => true,
      () => false,
    );
  }

  /**
   * Stops refreshing and hands back the identity of the directory this holder made, so that
   * lock.ts can remove it (if it is still that one) before taking the lock afresh.
   */
  abandon(): DirId {
    this.lostReason ??= 'given up to be taken afresh';
    this.stop();
    return this.id;
  }

  /** Removes the directory if it is still ours; never throws. */
  async release(): Promise<void> {
    this.stop();
    await this.refreshing;
    if (this.lost) return;
    try {
      const now = dirIdSync(this.lockDir);
      if (now?.ino === this.id.ino && now.mtimeNs === this.id.mtimeNs) rmdirSync(this.lockDir);
    } catch {
      // gone, or not ours to remove: nothing to release
    }
  }

  /**
   * {@link release} without waiting for it: the `rmdir` goes to the thread pool and the caller goes
   * on at once (issue 24: on this machine's ext4 an `rmdir` took 0.1–1.5 ms, run synchronously
   * between a woken teammate's take and its model request). The lock is held until the directory
   * is gone, as before, only not by the caller's time: until then the lock stays among those removed
   * at exit, and this process's next {@link DirLock.create} of it waits for the removal.
   */
  releaseInBackground(): void {
    clearInterval(this.timer);
    const removed = (async () => {
      await this.refreshing;
      if (this.lost) return;
      const now = dirIdSync(this.lockDir);
      if (now?.ino === this.id.ino && now.mtimeNs === this.id.mtimeNs) await rmdir(this.lockDir);
    })()
      .catch(() => undefined) // gone, or not ours to remove: nothing to release
      .finally(() => {
        heldAtExit.delete(this);
        if (releasing.get(this.lockDir) === removed) releasing.delete(this.lockDir);
      });
    releasing.set(this.lockDir, removed);
  }

  /**
   * Synchronous release for the exit handler (only while surely ours, and only the directory this
   * holder made: a background removal may have finished on the thread pool, and another process
   * taken the lock, before its callback ran).
   */
  releaseSync(): void {
    this.stop();
    if (this.lost) return;
    try {
      const now = dirIdSync(this.lockDir);
      if (now?.ino === this.id.ino && now.mtimeNs === this.id.mtimeNs) rmdirSync(this.lockDir);
    } catch {
      // already gone
    }
  }

  private get budgetMs(): number {
    return this.staleMs - budgetMarginMs(this.staleMs);
  }

  private withinBudget(): boolean {
    return ageMs(this.id) < this.budgetMs;
  }

  private async refresh(): Promise<void> {
    if (this.lost) return this.markLost(this.lostReason ?? 'its refresh came too late (this process was paused or starved)');
    try {
      const now = await dirId(this.lockDir);
      if (!now || now.ino !== this.id.ino || now.mtimeNs !== this.id.mtimeNs) return this.markLost('another process took it over');
      const t = new Date();
      await utimes(this.lockDir, t, t);
      const after = await dirId(this.lockDir);
      if (!after || after.ino !== this.id.ino) return this.markLost('another process took it over');
      this.id = after;
    } catch (err) {
      this.markLost(`refreshing it failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private markLost(reason: string): void {
    const first = this.lostReason === undefined;
    this.lostReason = reason;
    this.stop();
    if (first) this.onLost(reason);
  }

  private stop(): void {
    clearInterval(this.timer);
    heldAtExit.delete(this);
  }
}
