/**
 * The write step of every locked read-modify-write, safe against a holder that is paused (SIGSTOP,
 * a frozen VM, swap) past the stale time and then resumes (issue 9 item 2; docs/decisions.md
 * "Locks", docs/format.md §3). The sequence:
 *
 * 1. write + fsync a temporary file; confirm the lock (else LOCK_COMPROMISED, nothing written);
 * 2. hard-link the file about to be replaced to `<file>.keep-<n>`; rename the temporary file over it;
 * 3. confirm the lock again. Still ours: drop the keep link, done.
 * 4. Lost: the rename may have replaced a file another holder wrote after taking the lock over
 *    (a Claude Code process; a mailroom taker cancels the pending rename instead, see
 *    lock-takeover.ts). Take the lock again and repair, from the kept file, the file's current
 *    content and this write's own text:
 *    - with a per-kind {@link Merge} (inboxes: src/store/fs/recover-inbox.ts; tasks and config:
 *      src/store/fs/recover-object.ts), merge back what the other writer changed; if this write's
 *      own change survived, it succeeds; if it conflicted, the merged content is written and a
 *      retryable LOCK_COMPROMISED makes {@link withLock} redo the operation on top of it;
 *    - without one: if nobody wrote since, put the replaced file back and redo; else keep the
 *      replaced file beside as `<file>.displaced-<ms>` and report LOCK_COMPROMISED naming it.
 *    - its keep link gone (`mailroom doctor --fix` merged it back and removed it under the lock,
 *      src/store/fs/health-repair.ts): the write landed and a later holder built on it; it succeeds.
 * A write whose temporary file a taker deleted ({@link WriteCancelled}) wrote nothing: retryable.
 *
 * So the writer reports success only when its change is in the file, and no acknowledged write of
 * another holder is lost — except in one window: a non-mailroom taker's rename landing between this
 * writer's `link` and `rename` (two adjacent syscalls) is replaced without being kept.
 */
import { open, readFile, rename, unlink } from 'node:fs/promises';
import { MailroomError, isErrno } from '../../errors.js';
import { FileExists, WriteCancelled, writeFileAtomic, type AtomicWriteResult } from './atomic-write.js';
import { lostLock, type HeldLock } from './lock.js';
import { testFreeze } from '../../test-freeze.js';
import { traceMark } from '../../trace-marks.js';

/** What a write that landed after losing its lock knows when it merges (file texts; undefined: no file). */
export interface MergeInput {
  /** What the writer read under its lock, before its change. */
  base: string | undefined;
  /** What it wrote. */
  mine: string;
  /** What its rename replaced: the version another holder wrote meanwhile. */
  replaced: string;
  /** What the file holds now, under the re-taken lock. */
  current: string;
}

/** What to write after a displacement. */
export interface MergeResult {
  /** The text to put in the file (equal to `current`: nothing to write). */
  text: string;
  /** True when the writer's own change is in `text`; false makes the operation run again. */
  mineKept: boolean;
  /** For the warning: what was merged back, e.g. "restored 3 entries". */
  note: string;
}

/** A per-kind merge; may throw (e.g. a text that does not parse): the generic rule applies then. */
export type Merge = (input: MergeInput) => MergeResult;

/** Lets a displaced write merge instead of failing: the text it started from and its kind's merge. */
export interface WriteRecovery {
  /** The file's text as read under the lock before the change (undefined: the file did not exist). */
  baseText: string | undefined;
  merge: Merge;
}

/** Options of {@link writeLocked}. */
export interface LockedWriteOptions {
  /** Create the file only if it does not exist (task files, a new config): never replaces anything. */
  exclusive?: boolean;
  /** How to merge if this write turns out to have replaced another holder's (see the module comment). */
  recovery?: WriteRecovery | undefined;
}

const MAX_DEPTH = 3;

/**
 * Writes `text` to `path` under `lock` (see the module comment).
 * @throws MailroomError LOCK_COMPROMISED (retryable, see {@link isRetryableLoss}, when nothing of
 * this write is left in the file), FILE_ACCESS
 */
export async function writeLocked(path: string, text: string, lock: HeldLock, options: LockedWriteOptions = {}, depth = 0): Promise<void> {
  let result: AtomicWriteResult;
  try {
    result = await writeFileAtomic(path, text, {
      beforeRename: () => lock.assertHeld(`writing ${path}`),
      exclusive: options.exclusive ?? false,
      keepReplaced: !options.exclusive,
    });
  } catch (err) {
    if (err instanceof WriteCancelled) throw lostLock(lock.lockDir, `writing ${path}`, 'a process that took it over as stale cancelled this write');
    if (err instanceof FileExists) {
      const why = (await lock.confirm()) ? 'the file appeared meanwhile' : 'another process took it over and created the file';
      throw lostLock(lock.lockDir, `creating ${path}`, why);
    }
    throw err;
  }
  testFreeze('after-rename', result.target);
  traceMark('write-renamed');
  if (await lock.confirm()) return dropKeep(result.kept);
  // Landed after the lock was lost. A file that was created (exclusively) replaced nothing.
  if (result.kept === undefined) return;
  await repair(path, text, result, result.kept, lock, options, depth);
}

async function repair(path: string, mine: string, result: AtomicWriteResult, kept: string, lock: HeldLock, options: LockedWriteOptions, depth: number): Promise<void> {
  const replaced = await readFile(kept, 'utf8').catch((err: unknown) => (isErrno(err, 'ENOENT') ? undefined : Promise.reject(err)));
  if (replaced === undefined) {
    // Only `mailroom doctor --fix` removes another process's keep link, under the file's lock once
    // this one's was stale, after merging back what it held (health-repair.ts): this write landed
    // (the rename was done) and the later holder built on it (break test, session 18: the resumed
    // writer failed on ENOENT for a message it had delivered).
    lock.warn(`mailroom: ${result.target} was written after this process lost its lock ${lock.lockDir} (it was paused past the stale time); its keep link ${kept} was merged back and removed by a later holder meanwhile, so nothing was left to merge`);
    return;
  }
  let again: HeldLock;
  try {
    again = await lock.retake();
  } catch (err) {
    const copy = `${result.target}.displaced-${Date.now()}`;
    await rename(kept, copy).catch(() => undefined);
    throw new MailroomError('LOCK_COMPROMISED', `${result.target} was written after this process lost its lock ${lock.lockDir}, over another process's version, and the lock could not be taken again to merge them (${err instanceof Error ? err.message : String(err)}). That version was kept as ${copy}: compare it with the file and merge by hand.`, {
      cause: err,
      details: { lockDir: lock.lockDir, path: result.target, displaced: copy },
    });
  }
  try {
    const current = await readWithInode(result.target);
    const plan = planRepair(mine, replaced, current, result.ino, options.recovery);
    if (plan.displacedCopy) {
      const copy = `${result.target}.displaced-${Date.now()}`;
      await writeFileAtomic(copy, replaced);
      throw new MailroomError(
        'LOCK_COMPROMISED',
        `${result.target} was written after this process lost its lock ${lock.lockDir} (it was paused past the stale time), over another process's version, and has changed since. ` +
          `That version was kept as ${copy}: compare it with the file and merge by hand.`,
        { details: { lockDir: lock.lockDir, path: result.target, displaced: copy } },
      );
    }
    if (plan.text !== undefined && plan.text !== current?.text) {
      if (depth >= MAX_DEPTH) throw new MailroomError('LOCK_COMPROMISED', `Gave up repairing ${result.target}: its lock ${lock.lockDir} was lost ${MAX_DEPTH} times in a row.`, { details: { lockDir: lock.lockDir } });
      const recovery = options.recovery && { baseText: current?.text, merge: options.recovery.merge };
      await writeLocked(result.target, plan.text, again, { recovery }, depth + 1);
    }
    const note = `mailroom: ${result.target} was written after this process lost its lock ${lock.lockDir} (it was paused past the stale time); ${plan.note}`;
    if (!plan.mineKept) throw lostLock(lock.lockDir, `writing ${path}`, `its write landed after another process took the lock over; ${plan.note}`);
    lock.warn(note);
  } finally {
    await again.release();
    await dropKeep(kept);
  }
}

interface RepairPlan {
  /** What to write (undefined: nothing). */
  text: string | undefined;
  mineKept: boolean;
  note: string;
  /** No merge possible: keep the replaced version beside the file and fail. */
  displacedCopy?: boolean;
}

function planRepair(mine: string, replaced: string, current: { text: string; ino: bigint } | undefined, myIno: bigint, recovery: WriteRecovery | undefined): RepairPlan {
  if (current === undefined) return { text: undefined, mineKept: false, note: 'the file was removed since' };
  if (recovery) {
    try {
      const merged = recovery.merge({ base: recovery.baseText, mine, replaced, current: current.text });
      return { text: merged.text, mineKept: merged.mineKept, note: merged.note };
    } catch {
      // a version that does not parse: the generic rule below
    }
  }
  const untouched = current.ino === myIno && current.text === mine;
  if (untouched) return { text: replaced, mineKept: false, note: 'put back the version it had replaced' };
  return { text: undefined, mineKept: false, note: '', displacedCopy: true };
}

async function readWithInode(path: string): Promise<{ text: string; ino: bigint } | undefined> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return undefined;
    throw err;
  }
  try {
    const { ino } = await handle.stat({ bigint: true });
    return { text: await handle.readFile('utf8'), ino };
  } finally {
    await handle.close();
  }
}

async function dropKeep(kept: string | undefined): Promise<void> {
  if (kept !== undefined) await unlink(kept).catch(() => undefined);
}
