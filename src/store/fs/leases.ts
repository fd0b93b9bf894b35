/**
 * Exactly-once hand-out on the filesystem (issue 9 item 1): the leases of an inbox live in a sidecar
 * `<root>/mailroom/leases/<team>/<agent>.json`, outside Claude Code's inbox file (which keeps only
 * its own `read: true` flags), and are read and written only under the sidecar's own lock
 * (`<agent>.json.lock` beside it). A take holds only that lock and reads the inbox without one (an
 * atomic rename makes every read a whole version), so it never waits for a sender, who holds the
 * inbox lock; whatever marks entries read (acknowledge, a take that acknowledges) holds the inbox
 * lock and then the sidecar's, never the other way round:
 *
 *   {"v":1,"leases":[{"id":"…","reader":"…","until":1767225600000,"keys":["<msg_id>",…]}],"handed":{"<msg_id>":2}}
 *
 * `handed` counts how many times each unread entry was handed out (issue 21: a take reports a
 * redelivery — an entry whose earlier lease was released, expired or voided — with its count);
 * a take drops the counts of entries no longer unread, an acknowledgement those it marked.
 *
 * A take selects the unread entries no live lease holds and records its lease in one step under
 * the sidecar's lock, so two readers (threads, processes) never get the same entry: an entry is
 * either read (marked under both locks) or leased (recorded under the sidecar's), and every take
 * reads both after taking the sidecar's lock. Crash safety:
 * - take: the sidecar rename is the commit point. A crash before it took nothing; after it, the
 *   lease outlives its reader and expires (`until`), or is voided when the member's reader claim
 *   passes to a new holder; either way the entries become unread for the next take. Never lost:
 *   the inbox file is not touched by a take.
 * - acknowledge: the inbox is written first (entries `read: true`), then the lease removed from the
 *   sidecar. A crash between leaves a lease of entries already read: it hands nothing out again
 *   (read entries are never taken) and is dropped once expired.
 * - release: only the sidecar changes.
 * A sidecar that does not parse is FILE_CORRUPT (never overwritten; `doctor --fix` moves it aside).
 *
 * A writer paused past the stale time (issue 9 item 2): the sidecar is mailroom's own file, which
 * Claude Code never writes, so only a mailroom process can take its lock over, and a mailroom taker
 * deletes the paused holder's temporary file before it removes the lock (lock-takeover.ts). The
 * paused rename then fails, which is a retryable loss: the step runs again under a new lock, on the
 * sidecar and inbox as they are then. So the sidecar needs no keep link and merge (the locked write
 * step of src/store/fs/locked-write.ts), and keeps its cheaper un-fsynced write. The inbox writes of an
 * acknowledgement go through that step (inboxes.ts).
 */
import { randomUUID } from '../../protocol/random.js';
import { dirname } from 'node:path';
import { z } from 'zod';
import { lazySchema } from '../../protocol/lazy-schema.js';
import { entryKey } from '../../domain/entries.js';
import { deliveryEvent } from '../../domain/events.js';
import { DEFAULT_LEASE_MS, checkTakeOptions, acknowledgedKeys, liveLeases, selectTake, type LeaseRecord } from '../../domain/leases.js';
import type { TeamEventRecord } from '../../protocol/events.js';
import { isUnreadEntry } from '../../domain/entries.js';
import { closeSync, constants, existsSync, fstatSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { isErrno } from '../../errors.js';
import { tempPathFor } from './atomic-write.js';
import { corruptFile, formatJson, FILE_MODE } from './json-file.js';
import { lostLock, type HeldLock } from './lock.js';
import { testFreeze } from '../../test-freeze.js';
import { traceMark } from '../../trace-marks.js';
import type { InboxEntry } from '../../protocol/inbox.js';
import type { AcknowledgeOptions, Lease, OpContext, TakeOptions, Transition, UnreadLook } from '../team-store.js';
import { ensureDir, locked, nowOf, stampOf, type FsContext } from './context.js';
import { archiveIfLarge, lookAtInbox, markEntries, readInbox, saveInbox, withInbox, type OpenInbox } from './inboxes.js';
import { journal } from './journal.js';
import { checkReaderFence } from './reader-fence.js';
import { viewStampNow } from './view-stamp.js';

const SidecarSchema = lazySchema(() => z.object({
  v: z.literal(1),
  leases: z.array(z.object({ id: z.string(), reader: z.string(), until: z.number(), keys: z.array(z.string()) })),
  /** How many times each unread entry (by key) was handed out (issue 21: redeliveries are marked). Absent in older sidecars: 0 each. */
  handed: z.record(z.string(), z.number().int().nonnegative()).optional(),
}));

/** A lease sidecar as read: its leases and the hand-out counts of unread entries. */
interface Sidecar {
  leases: LeaseRecord[];
  handed: Record<string, number>;
}

/**
 * The leases of an inbox (none when the sidecar is missing). @throws FILE_CORRUPT
 *
 * The sidecar is read and written with synchronous calls: it is a few hundred bytes, touched only
 * inside the inbox lock on the delivery path of every model call, where each asynchronous call's
 * round trip through libuv's thread pool costs more than the system call itself (docs/decisions.md
 * "Synchronous I/O in critical sections").
 */
export function readLeases(ctx: FsContext, team: string, agent: string): LeaseRecord[] {
  return readSidecar(ctx, team, agent).leases;
}

/** The whole sidecar (see {@link readLeases}). @throws FILE_CORRUPT */
function readSidecar(ctx: FsContext, team: string, agent: string): Sidecar {
  const path = ctx.layout.leasePath(team, agent);
  let text: string;
  try {
    const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      if (!fstatSync(fd).isFile()) throw corruptFile(path, undefined, 'is not a regular file');
      text = readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return { leases: [], handed: {} };
    throw err;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw corruptFile(path, err);
  }
  const parsed = SidecarSchema.safeParse(value);
  if (!parsed.success) throw corruptFile(path, parsed.error, 'does not match the lease format');
  return { leases: parsed.data.leases, handed: parsed.data.handed ?? {} };
}

/**
 * Writes the leases (the caller holds the sidecar's lock, checked right before the rename): a temp
 * file renamed into place, like every write, but **not fsynced** — a take is on the delivery path of
 * every model call, and what a power loss could lose here is only leases, whose entries then count
 * as unleased (handed out again to the restarted reader, which lost its conversation anyway). A
 * process crash loses nothing: the rename is atomic either way. A rename whose temporary file is
 * gone was cancelled by a process that took the lock over (see the module comment): LOCK_COMPROMISED,
 * retryable, nothing written.
 */
async function writeLeases(ctx: FsContext, team: string, agent: string, leases: readonly LeaseRecord[], handed: Readonly<Record<string, number>>, lock: HeldLock): Promise<void> {
  const path = ctx.layout.leasePath(team, agent);
  const tmp = tempPathFor(path);
  const text = formatJson(Object.keys(handed).length > 0 ? { v: 1, leases, handed } : { v: 1, leases });
  try {
    try {
      writeFileSync(tmp, text, { flag: 'wx', mode: FILE_MODE });
    } catch (err) {
      if (!isErrno(err, 'ENOENT')) throw err;
      await ensureDir(dirname(path));
      writeFileSync(tmp, text, { flag: 'wx', mode: FILE_MODE });
    }
    await lock.assertHeld(`writing ${path}`);
    testFreeze('before-rename', path);
    try {
      renameSync(tmp, path);
    } catch (err) {
      if (isErrno(err, 'ENOENT') && !existsSync(tmp)) throw lostLock(lock.lockDir, `writing ${path}`, 'a process that took it over as stale cancelled this write');
      throw err;
    }
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      // never written
    }
    throw err;
  }
}

/** Runs `fn` under the sidecar's own lock (its directory is created first); `release` as `withLock`'s (lock.ts). */
async function withSidecar<T>(ctx: FsContext, team: string, agent: string, fn: (lock: HeldLock) => Promise<T>, release: 'wait' | 'background' = 'wait'): Promise<T> {
  await ensureDir(ctx.layout.leaseDir(team));
  return locked(ctx, ctx.layout.leasePath(team, agent), fn, release);
}

/**
 * Hands out unread entries not held by a live lease (see the module comment). With `acknowledge`,
 * the entries are marked read in the same step and no lease is kept (a reader that consumes on
 * hand-out, e.g. an MCP tool result).
 */
export async function takeUnread(ctx: FsContext, team: string, agent: string, options: TakeOptions): Promise<Transition<Lease>> {
  checkTakeOptions(options);
  const now = nowOf(options);
  const until = now + (options.leaseMs ?? DEFAULT_LEASE_MS);
  const empty = (remaining: number): Transition<Lease> => ({ value: { id: '', reader: options.reader, until, entries: [], deliveries: [], remaining }, events: [] });
  traceMark('take-start');
  // Most takes find nothing unread: they need neither a lock nor the sidecar (but a fenced reader is told).
  const look = await lookAtInbox(ctx, team, agent);
  if (!look.entries.some(isUnreadEntry)) {
    await checkReaderFence(ctx, team, agent, options.claim);
    return empty(0);
  }
  if (options.acknowledge) return (await withInbox(ctx, team, agent, async (inbox) => ({ result: await takeAndMark(ctx, team, agent, inbox, options, until), write: false }), true)) ?? empty(0);
  traceMark('take-prechecked');
  const taken = await withSidecar(ctx, team, agent, async (lock): Promise<Transition<Lease>> => {
    traceMark('take-locked');
    await checkReaderFence(ctx, team, agent, options.claim);
    const sidecar = readSidecar(ctx, team, agent);
    const leases = liveLeases(sidecar.leases, now);
    // Read again under the lock (an acknowledgement may have marked entries read since the look);
    // the same text is not parsed again.
    const { entries } = await lookAtInbox(ctx, team, agent, look);
    const selection = selectTake(entries, leases, now, options.limit);
    if (selection.taken.length === 0) return empty(selection.remaining);
    const lease: LeaseRecord = { id: randomUUID(), reader: options.reader, until, keys: selection.taken.map(entryKey) };
    const handed = countHandOut(sidecar.handed, entries, lease.keys);
    traceMark('take-read');
    await writeLeases(ctx, team, agent, [...leases, lease], handed, lock);
    traceMark('take-renamed');
    const s = stampOf(team, options);
    const events = lease.keys.map((k) => deliveryEvent(s, agent, k, 'delivered', lease.id));
    await journal(ctx, team, events);
    traceMark('take-journaled');
    return { value: { id: lease.id, reader: options.reader, until, entries: selection.taken, deliveries: lease.keys.map((k) => handed[k]!), remaining: selection.remaining }, events };
    // The lease is committed (renamed into place) and journalled: the sidecar's lock is removed on
    // the thread pool while the taker goes on to its model request (issue 24; lock-dir.ts).
  }, 'background');
  if (taken.value.entries.length > 0) taken.value.viewStamp = stampAfter(ctx, team);
  return taken;
}

/**
 * What a take would hand out now (TeamStore.lookUnread): the inbox's unread entries, read without a
 * lock (an atomic rename makes every read a whole version), and the view stamp taken after that
 * read, as a take's. The sidecar is not read: a live lease (a dead reader's, not yet voided) makes
 * the take hand out fewer, which its caller sees when it compares.
 */
export async function lookUnread(ctx: FsContext, team: string, agent: string): Promise<UnreadLook> {
  const entries = (await lookAtInbox(ctx, team, agent)).entries.filter(isUnreadEntry);
  return entries.length === 0 ? { entries } : { entries, viewStamp: stampAfter(ctx, team) };
}

/**
 * The team's view stamp right after a take's step (Lease.viewStamp; view-stamp.ts): taken after
 * the inbox read that found the entries, so a change of config, settings or member records
 * committed before any of them was sent is in it. Undefined when it cannot be taken (the team was
 * deleted meanwhile): the reader then reads as without one, and reports what it finds. The lease
 * is committed either way.
 */
function stampAfter(ctx: FsContext, team: string): string | undefined {
  try {
    return viewStampNow(ctx, team);
  } catch {
    return undefined;
  }
}

/** The hand-out counts after handing out `keys`: theirs one more, and only unread entries kept (read ones are never handed out again). */
function countHandOut(handed: Readonly<Record<string, number>>, entries: readonly InboxEntry[], keys: readonly string[]): Record<string, number> {
  const next: Record<string, number> = {};
  for (const e of entries) {
    const k = entryKey(e);
    if (isUnreadEntry(e) && handed[k] !== undefined) next[k] = handed[k];
  }
  for (const k of keys) next[k] = (next[k] ?? 0) + 1;
  return next;
}

/** Take-and-acknowledge: under the inbox lock (held by the caller), then the sidecar's, so no take by another reader comes between. */
async function takeAndMark(ctx: FsContext, team: string, agent: string, inbox: OpenInbox, options: TakeOptions, until: number): Promise<Transition<Lease>> {
  const now = nowOf(options);
  return withSidecar(ctx, team, agent, async () => {
    await checkReaderFence(ctx, team, agent, options.claim);
    const sidecar = readSidecar(ctx, team, agent);
    const leases = liveLeases(sidecar.leases, now);
    const selection = selectTake(inbox.entries, leases, now, options.limit);
    const id = selection.taken.length > 0 ? randomUUID() : '';
    const marked = markEntries(selection.taken, new Set(selection.taken.map(entryKey)));
    if (marked.length > 0) await saveInbox(ctx, team, agent, inbox);
    const s = stampOf(team, options);
    const events = marked.flatMap((k) => [deliveryEvent(s, agent, k, 'delivered', id), deliveryEvent(s, agent, k, 'read', id)]);
    await journal(ctx, team, events);
    const deliveries = selection.taken.map((e) => (sidecar.handed[entryKey(e)] ?? 0) + 1);
    return { value: { id, reader: options.reader, until, entries: selection.taken, deliveries, remaining: selection.remaining }, events };
  });
}

/**
 * Marks a lease's entries read (all, or those in `keys`: the lease keeps the others) and ends the lease, under the inbox lock
 * and then the sidecar's (never the other way: takes hold only the sidecar's). With `archiveRead`,
 * a large inbox's read head moves to the archive before the inbox is written (inboxes.ts
 * `archiveIfLarge`). @returns how many turned read
 */
export async function acknowledge(ctx: FsContext, team: string, agent: string, leaseId: string, options: AcknowledgeOptions = {}): Promise<Transition<number>> {
  const now = nowOf(options);
  const events: TeamEventRecord[] = [];
  const count = await withInbox(ctx, team, agent, async (inbox) => {
    // Keys this step marked read: a run of the sidecar step that lost its lock after the inbox was
    // written runs again (withLock) and finds them read already, yet they are still its to journal.
    const marked: string[] = [];
    return withSidecar(ctx, team, agent, async (lock) => {
      await checkReaderFence(ctx, team, agent, options.claim);
      const { leases, handed } = readSidecar(ctx, team, agent);
      const lease = leases.find((l) => l.id === leaseId);
      if (lease) {
        const keys = acknowledgedKeys(lease, leases, now, options.keys);
        const newly = markEntries(inbox.entries, new Set(keys));
        // An entry its reader removed from the inbox meanwhile (Claude Code 2.1.332 deletes what it
        // delivered) is read, as readers count it (messageStatus): journalled read, never written back.
        const present = new Set(inbox.entries.map(entryKey));
        if (newly.length > 0) {
          // A reader that allows it moves the read head of a large inbox in this same step (issue 24 item 4).
          if (options.archiveRead) await archiveIfLarge(ctx, team, agent, inbox);
          await saveInbox(ctx, team, agent, inbox);
        }
        const removed = keys.filter((k) => !present.has(k) && !marked.includes(k));
        marked.push(...keys.filter((k) => newly.includes(k) || removed.includes(k)));
        const counts = { ...handed };
        for (const k of marked) delete counts[k];
        // Acknowledging some keys keeps the lease for the others; it ends once it holds nothing more.
        const rest = options.keys ? lease.keys.filter((k) => !options.keys!.includes(k)) : [];
        const others = liveLeases(leases, now).filter((l) => l.id !== leaseId);
        await writeLeases(ctx, team, agent, rest.length > 0 && lease.until > now ? [...others, { ...lease, keys: rest }] : others, counts, lock);
      }
      const s = stampOf(team, options);
      events.splice(0, events.length, ...marked.map((k) => deliveryEvent(s, agent, k, 'read', leaseId)));
      await journal(ctx, team, events);
      return { result: marked.length, write: false };
    });
  });
  return { value: count ?? 0, events };
}

/** Ends a lease without marking anything: its entries are unread for the next take at once. @returns how many */
export async function release(ctx: FsContext, team: string, agent: string, leaseId: string, op?: OpContext): Promise<Transition<number>> {
  return releaseWhere(ctx, team, agent, (l) => l.id === leaseId, op);
}

/** Ends every lease taken by `reader` (a reader claim token that lost its claim). */
export async function releaseReaderLeases(ctx: FsContext, team: string, agent: string, reader: string, op?: OpContext): Promise<Transition<number>> {
  return releaseWhere(ctx, team, agent, (l) => l.reader === reader, op);
}

async function releaseWhere(ctx: FsContext, team: string, agent: string, match: (l: LeaseRecord) => boolean, op?: OpContext): Promise<Transition<number>> {
  const now = nowOf(op);
  if (readLeases(ctx, team, agent).filter(match).length === 0) return { value: 0, events: [] };
  return withSidecar(ctx, team, agent, async (lock) => {
    const { leases, handed } = readSidecar(ctx, team, agent);
    const ended = leases.filter(match);
    if (ended.length === 0) return { value: 0, events: [] };
    await writeLeases(ctx, team, agent, liveLeases(leases, now).filter((l) => !match(l)), handed, lock);
    const unread = new Set((await readInbox(ctx, team, agent)).filter(isUnreadEntry).map(entryKey));
    const s = stampOf(team, op);
    const events = ended.flatMap((l) => l.keys.filter((k) => unread.has(k)).map((k) => deliveryEvent(s, agent, k, 'released', l.id)));
    await journal(ctx, team, events);
    return { value: events.length, events };
  });
}
