/**
 * Fair, combined appends to one inbox (issue 14 item 5; docs/decisions.md "Locks"). With many
 * writers back to back, a writer that finds the inbox lock taken does not sleep and retry blind
 * (the one that just released it wins again and again, and some writers starve): it **spools** its
 * entries — one file `teams/<team>/inboxes/.spool/<agent>/<ms>-<pid>-<n>.json` — and waits. Whoever holds the lock next, for an append, appends every spooled batch (oldest
 * first) together with its own in one write, and removes the batches only after that write is
 * confirmed (src/store/locked-write.ts). A waiter whose batch is gone is done: its entries are in
 * the inbox. A waiter that gets the lock first appends the spool itself. So each append waits for
 * at most about one write of the holder, whoever wins the lock, and 8 writers share each fsync.
 *
 * Claude Code never reads the spool (it sits beside the inboxes, in a directory it does not glob)
 * and still takes the same lock directory to write: it excludes and is excluded as before, only it
 * does not flush the spool; the next mailroom append does. A batch already in the inbox (its
 * holder died between its write and the clean-up) is recognised by `msg_id` and not appended twice.
 * `$MAILROOM_INBOX_SPOOL=0` turns combining off (each append takes the lock itself), for the
 * same-run baseline of bench/20-writers.
 */
import { watch, type FSWatcher } from 'node:fs';
import { access, mkdir, readdir, readFile, rmdir, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { MailroomError, isErrno } from '../../errors.js';
import { DEFAULT_WAIT_MS, tryAcquireLock, withLock, type HeldLock, type LockOptions } from '../lock.js';
import { DIR_MODE, FILE_MODE } from '../modes.js';

/** One spooled batch: its file and its entries. */
export interface SpooledBatch {
  path: string;
  entries: unknown[];
}

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
 * Appends `entries` to the inbox at `inboxPath` fairly (see the module comment): `underLock`
 * performs the append under the inbox lock, given the spooled batches it must append first (and
 * then remove with {@link clearSpool}) and whether to append `entries` too (false: another holder
 * already did); it runs with {@link withLock}'s redo on a lost lock.
 * @returns what `underLock` returned, or undefined when another holder appended these entries.
 * @throws MailroomError LOCK_TIMEOUT after `options.waitMs` (the batch is withdrawn first; if
 * it was appended meanwhile, this resolves instead)
 */
export async function appendThroughSpool<T>(
  inboxPath: string,
  lockDir: string,
  options: LockOptions,
  entries: readonly unknown[],
  underLock: (lock: HeldLock, spooled: SpooledBatch[], withOwn: boolean) => Promise<T>,
): Promise<T | undefined> {
  const dir = spoolDirFor(inboxPath);
  const first = await tryAcquireLock(inboxPath, lockDir, options);
  if (first) return withLock(inboxPath, lockDir, options, async (l) => underLock(l, await readSpool(dir), true), first);
  const ticket = await spool(dir, entries);
  // Holding the lock after spooling: our own batch is appended in its place among the others (so
  // spooling order is kept); if it is gone already, a holder appended it just before.
  const run = (lock: HeldLock) => withLock(inboxPath, lockDir, options, async (l) => underLock(l, await readSpool(dir), false), lock);
  const start = performance.now();
  const deadline = Date.now() + (options.waitMs ?? DEFAULT_WAIT_MS);
  // Woken when our batch is removed (a watch on that file only: a watch on the directory woke every
  // waiter for every batch); the lock is tried on a timer only, so waiters do not crowd the
  // holder's CPU while it writes their entries.
  const waker = new Waker([ticket]);
  const quiet = { ...options, onAcquired: undefined }; // waits are reported from the start of this append
  try {
    let delay = MIN_WAIT_MS;
    let nextTry = performance.now() + delay;
    for (;;) {
      if (!(await present(ticket))) {
        options.onAcquired?.({ lockDir, waitMs: performance.now() - start });
        return undefined;
      }
      if (performance.now() >= nextTry) {
        const lock = await tryAcquireLock(inboxPath, lockDir, quiet);
        if (lock) {
          options.onAcquired?.({ lockDir, waitMs: performance.now() - start });
          return await run(lock);
        }
        delay = Math.min(delay * 2, MAX_WAIT_MS);
        nextTry = performance.now() + delay * (0.5 + Math.random());
      }
      if (Date.now() >= deadline) {
        if (await withdraw(ticket)) throw timeout(lockDir, options.waitMs ?? DEFAULT_WAIT_MS);
        return undefined;
      }
      await waker.wait(Math.max(0, nextTry - performance.now()));
    }
  } finally {
    waker.close();
  }
}

/**
 * Writes one batch into `dir` (created on first use); @returns its path. Names sort in spooling
 * order. No temporary file: a holder that reads a batch still being written finds it does not
 * parse (no proper prefix of a JSON array does) and leaves it for the next write.
 */
async function spool(dir: string, entries: readonly unknown[]): Promise<string> {
  const name = `${String(Date.now()).padStart(15, '0')}-${process.pid}-${String(sequence++).padStart(6, '0')}-${Math.random().toString(36).slice(2, 8)}.json`;
  const path = join(dir, name);
  const text = JSON.stringify(entries);
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

/** The spooled batches of `dir`, oldest first; a file that does not parse is skipped (left for doctor). */
export async function readSpool(dir: string): Promise<SpooledBatch[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort();
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return [];
    throw err;
  }
  const batches: SpooledBatch[] = [];
  for (const name of names) {
    const path = join(dir, name);
    const text = await readFile(path, 'utf8').catch(() => undefined);
    if (text === undefined) continue; // withdrawn or taken meanwhile
    try {
      const value: unknown = JSON.parse(text);
      if (Array.isArray(value)) batches.push({ path, entries: value });
    } catch {
      // not a batch mailroom wrote
    }
  }
  return batches;
}

/** Removes batches that are now in the inbox: their writers see them gone and report success. */
export async function clearSpool(batches: readonly SpooledBatch[]): Promise<void> {
  if (batches.length === 0) return;
  await Promise.all(batches.map((b) => unlink(b.path).catch(() => undefined)));
  // Leave no empty directories behind (a spooler that finds its directory gone makes it again).
  const dir = dirname(batches[0]!.path);
  await rmdir(dir).then(() => rmdir(dirname(dir)), () => undefined).catch(() => undefined);
}

async function present(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    (err: unknown) => {
      if (isErrno(err, 'ENOENT')) return false;
      throw err;
    },
  );
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
