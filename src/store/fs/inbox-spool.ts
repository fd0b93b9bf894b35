/**
 * Fair, combined appends to one inbox (issue 14 item 5; docs/decisions.md "Locks"). With many
 * writers back to back, a writer that finds the inbox lock taken does not sleep and retry blind
 * (the one that just released it wins again and again, and some writers starve): it **spools** its
 * batch — one file `teams/<team>/inboxes/.spool/<agent>/<ms>-<pid>-<n>.json` — and waits. Whoever
 * holds the lock next, for an append, appends every spooled batch (oldest first) together with its
 * own in one write, journals their events, leaves each waiter a **receipt** `<batch>.done` (what was
 * stored and journalled for it: timestamps may have moved, src/domain/entries.ts) and removes the
 * batches only after that write is confirmed (src/store/fs/locked-write.ts). A waiter whose batch is
 * gone is done: it reads its receipt and returns what it says, as if it had appended itself. A
 * waiter that gets the lock first appends the spool itself. So each append waits for at most about
 * one write of the holder, whoever wins the lock, and 8 writers share each fsync.
 *
 * Claude Code never reads the spool (it sits beside the inboxes, in a directory it does not glob)
 * and still takes the same lock directory to write: it excludes and is excluded as before, only it
 * does not flush the spool; the next mailroom append does. A batch already in the inbox (its
 * holder died between its write and the clean-up) is recognised by `msg_id` and not appended twice.
 * Receipts nobody collected (a waiter killed meanwhile) are removed by a later holder after
 * {@link RECEIPT_TTL_MS}. `$MAILROOM_INBOX_SPOOL=0` turns combining off (each append takes the lock
 * itself), for the same-run baseline of bench/20-writers.
 */
import { watch, type FSWatcher } from 'node:fs';
import { mkdir, readdir, readFile, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { MailroomError, isErrno } from '../../errors.js';
import { DEFAULT_WAIT_MS, tryAcquireLock, withLock, type HeldLock, type LockOptions } from './lock.js';
import { DIR_MODE, FILE_MODE } from './modes.js';
import { exists } from './context.js';
import { monotonicMs } from './monotonic.js';

/** One spooled batch: its file and what its appender spooled (a JSON value; the caller gives it meaning). */
export interface SpooledBatch {
  path: string;
  body: unknown;
}

/** How an append through the spool went: appended by this process (`value`), or by another holder (its `receipt`, undefined if none was left). */
export type SpoolOutcome<R> = { by: 'self'; value: R } | { by: 'other'; receipt: unknown };

/** A receipt older than this was left by a waiter that is gone (ms). */
export const RECEIPT_TTL_MS = 60_000;
const RECEIPT_SUFFIX = '.done';

/** The spool directory of the inbox file `inboxPath`: `<inbox dir>/.spool/<agent>`. */
export function spoolDirFor(inboxPath: string): string {
  return join(dirname(inboxPath), '.spool', basename(inboxPath, '.json'));
}

/** False when `$MAILROOM_INBOX_SPOOL` is `0` (benchmark baseline). */
export function combiningEnabled(): boolean {
  return process.env.MAILROOM_INBOX_SPOOL !== '0';
}

let sequence = 0;
/** Lock attempts of a spooled waiter back off from … to … ms (its batch is usually appended first). */
const MIN_WAIT_MS = 2;
const MAX_WAIT_MS = 20;

/**
 * Appends `body` to the inbox at `inboxPath` fairly (see the module comment): `underLock` performs
 * the append under the inbox lock, given the spooled batches it must append first (leaving each a
 * receipt with {@link writeReceipt}, then removing them with {@link clearSpool}) and `own`: the path
 * of this caller's batch among them, or undefined when this caller did not spool and appends its own
 * after them. It returns this caller's result, or undefined when its batch was not in the spool any
 * more (another holder appended it just before); it runs with {@link withLock}'s redo on a lost lock.
 * @throws MailroomError LOCK_TIMEOUT after `options.waitMs` (the batch is withdrawn first; if
 * it was appended meanwhile, this resolves instead)
 */
export async function appendThroughSpool<R>(
  inboxPath: string,
  lockDir: string,
  options: LockOptions,
  body: unknown,
  underLock: (lock: HeldLock, spooled: SpooledBatch[], own: string | undefined) => Promise<R | undefined>,
): Promise<SpoolOutcome<R>> {
  const dir = spoolDirFor(inboxPath);
  const first = await tryAcquireLock(inboxPath, lockDir, options);
  if (first) {
    const value = await withLock(inboxPath, lockDir, options, async (l) => underLock(l, await readSpool(dir), undefined), first);
    if (value === undefined) throw new MailroomError('INTERNAL', `An append to ${inboxPath} returned no result.`);
    return { by: 'self', value };
  }
  const ticket = await spool(dir, body);
  const byOther = async (): Promise<SpoolOutcome<R>> => ({ by: 'other', receipt: await takeReceipt(ticket) });
  // Holding the lock after spooling: our own batch is appended in its place among the others (so
  // spooling order is kept); if it is gone already, a holder appended it just before.
  const run = async (lock: HeldLock): Promise<SpoolOutcome<R>> => {
    const value = await withLock(inboxPath, lockDir, options, async (l) => underLock(l, await readSpool(dir), ticket), lock);
    return value === undefined ? byOther() : { by: 'self', value };
  };
  const start = monotonicMs();
  const deadline = Date.now() + (options.waitMs ?? DEFAULT_WAIT_MS);
  // Woken when our batch is removed (a watch on that file only: a watch on the directory woke every
  // waiter for every batch); the lock is tried on a timer only, so waiters do not crowd the
  // holder's CPU while it writes their entries.
  const waker = new Waker([ticket]);
  const quiet = { ...options, onAcquired: undefined }; // waits are reported from the start of this append
  try {
    let delay = MIN_WAIT_MS;
    let nextTry = monotonicMs() + delay;
    for (;;) {
      if (!(await exists(ticket))) {
        options.onAcquired?.({ lockDir, waitMs: monotonicMs() - start });
        return await byOther();
      }
      if (monotonicMs() >= nextTry) {
        const lock = await tryAcquireLock(inboxPath, lockDir, quiet);
        if (lock) {
          options.onAcquired?.({ lockDir, waitMs: monotonicMs() - start });
          return await run(lock);
        }
        delay = Math.min(delay * 2, MAX_WAIT_MS);
        nextTry = monotonicMs() + delay * (0.5 + Math.random());
      }
      if (Date.now() >= deadline) {
        if (await withdraw(ticket)) throw timeout(lockDir, options.waitMs ?? DEFAULT_WAIT_MS);
        return await byOther();
      }
      await waker.wait(Math.max(0, nextTry - monotonicMs()));
    }
  } finally {
    waker.close();
  }
}

/**
 * Leaves the waiter of `batch` its receipt (the holder calls it after its write is confirmed, before
 * {@link clearSpool}). Not fsynced: a receipt lost to a power cut leaves the waiter with what it
 * appended as it gave it.
 */
export async function writeReceipt(batch: SpooledBatch, receipt: unknown): Promise<void> {
  await writeFile(`${batch.path}${RECEIPT_SUFFIX}`, JSON.stringify(receipt), { mode: FILE_MODE });
}

/** Reads and removes the receipt of this process's batch `ticket` (undefined when there is none). */
async function takeReceipt(ticket: string): Promise<unknown> {
  const path = `${ticket}${RECEIPT_SUFFIX}`;
  const text = await readFile(path, 'utf8').catch(() => undefined);
  await unlink(path).catch(() => undefined);
  await removeEmpty(dirname(ticket));
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Writes one batch into `dir` (created on first use); @returns its path. Names sort in spooling
 * order. No temporary file: a holder that reads a batch still being written finds it does not
 * parse (no proper prefix of a JSON array or object does) and leaves it for the next write.
 */
async function spool(dir: string, body: unknown): Promise<string> {
  const name = `${String(Date.now()).padStart(15, '0')}-${process.pid}-${String(sequence++).padStart(6, '0')}-${Math.random().toString(36).slice(2, 8)}.json`;
  const path = join(dir, name);
  const text = JSON.stringify(body);
  for (let attempt = 0; ; attempt++) {
    try {
      await writeFile(path, text, { mode: FILE_MODE, flag: 'wx' });
      return path;
    } catch (err) {
      // The directory is made on first use and removed when empty (clearSpool), possibly while we
      // make it: make it again.
      if (!isErrno(err, 'ENOENT') || attempt >= 8) throw err;
      await mkdir(dir, { recursive: true, mode: DIR_MODE }).catch(() => undefined);
    }
  }
}

/**
 * The spooled batches of `dir`, oldest first; a file that does not parse is skipped (left for the
 * next holder). Receipts older than {@link RECEIPT_TTL_MS} are removed on the way.
 */
export async function readSpool(dir: string): Promise<SpooledBatch[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => !n.startsWith('.')).sort();
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return [];
    throw err;
  }
  const batches: SpooledBatch[] = [];
  for (const name of names) {
    const path = join(dir, name);
    if (name.endsWith(RECEIPT_SUFFIX)) {
      await dropIfOld(path);
      continue;
    }
    if (!name.endsWith('.json')) continue;
    const text = await readFile(path, 'utf8').catch(() => undefined);
    if (text === undefined) continue; // withdrawn or taken meanwhile
    try {
      batches.push({ path, body: JSON.parse(text) as unknown });
    } catch {
      // still being written (or not a batch mailroom wrote)
    }
  }
  return batches;
}

async function dropIfOld(path: string): Promise<void> {
  const s = await stat(path).catch(() => undefined);
  if (s && Date.now() - s.mtimeMs > RECEIPT_TTL_MS) await unlink(path).catch(() => undefined);
}

/** Removes batches that are now in the inbox: their writers see them gone and read their receipts. */
export async function clearSpool(batches: readonly SpooledBatch[]): Promise<void> {
  if (batches.length === 0) return;
  await Promise.all(batches.map((b) => unlink(b.path).catch(() => undefined)));
  await removeEmpty(dirname(batches[0]!.path));
}

/** Leaves no empty spool directories behind (a spooler that finds its directory gone makes it again). */
async function removeEmpty(dir: string): Promise<void> {
  await rmdir(dir).then(() => rmdir(dirname(dir)), () => undefined).catch(() => undefined);
}

/** Takes a batch back; false when a holder already appended (and removed) it. */
async function withdraw(path: string): Promise<boolean> {
  return unlink(path).then(
    () => true,
    () => false,
  );
}

function timeout(lockDir: string, waitMs: number): MailroomError {
  return new MailroomError('LOCK_TIMEOUT', `Timed out after ${waitMs} ms waiting for lock ${lockDir}: another process holds it and keeps it fresh. Nothing was appended. Retry shortly; if no mailroom or Claude Code process is running, run \`mailroom doctor --fix\` or remove that directory.`, {
    details: { lockDir, waitMs },
  });
}

/** Wakes a waiter on any change of `paths` (its batch removed), else after a timeout. */
class Waker {
  private readonly watchers: FSWatcher[] = [];
  private wake: (() => void) | undefined;

  constructor(paths: readonly string[]) {
    for (const dir of paths) {
      try {
        const w = watch(dir, () => this.wake?.());
        w.on('error', () => undefined);
        this.watchers.push(w);
      } catch {
        // no watch (e.g. too many watches): the timeout still wakes
      }
    }
  }

  wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = undefined;
        done();
      };
    });
  }

  close(): void {
    this.wake = undefined;
    for (const w of this.watchers) w.close();
  }
}
