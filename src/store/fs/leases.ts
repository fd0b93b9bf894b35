/**
 * Exactly-once hand-out on the filesystem (issue 9 item 1): the leases of an inbox live in a sidecar
 * `<root>/mailroom/leases/<team>/<agent>.json`, outside Claude Code's inbox file (which keeps only
 * its own `read: true` flags), and are read and written only under the *inbox's* lock:
 *
 *   {"v":1,"leases":[{"id":"…","reader":"…","until":1767225600000,"keys":["<msg_id>",…]}]}
 *
 * A take selects the unread entries no live lease holds and records its lease in one step under
 * that lock, so two readers (threads, processes) never get the same entry. Crash safety:
 * - take: the sidecar rename is the commit point. A crash before it took nothing; after it, the
 *   lease outlives its reader and expires (`until`), or is voided when the member's reader claim
 *   passes to a new holder; either way the entries become unread for the next take. Never lost:
 *   the inbox file is not touched by a take.
 * - acknowledge: the inbox is written first (entries `read: true`), then the lease removed from the
 *   sidecar. A crash between leaves a lease of entries already read: it hands nothing out again
 *   (read entries are never taken) and is dropped once expired.
 * - release: only the sidecar changes.
 * A sidecar that does not parse is FILE_CORRUPT (never overwritten; `doctor --fix` moves it aside).
 */
import { randomUUID } from 'node:crypto';
import { dirname } from 'node:path';
import { z } from 'zod';
import { entryKey } from '../../domain/entries.js';
import { deliveryEvent } from '../../domain/events.js';
import { DEFAULT_LEASE_MS, acknowledgedKeys, liveLeases, selectTake, type LeaseRecord } from '../../domain/leases.js';
import type { TeamEventRecord } from '../../protocol/events.js';
import { isUnreadEntry } from '../../domain/entries.js';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { tempPathFor } from '../atomic-write.js';
import { corruptFile, formatJson, readJsonFile, writeJsonFile, FILE_MODE } from '../json-file.js';
import type { HeldLock } from '../lock.js';
import type { Lease, OpContext, TakeOptions, Transition } from '../team-store.js';
import { ensureDir, nowOf, stampOf, type FsContext } from './context.js';
import { markEntries, readInbox, withInbox } from './inboxes.js';
import { journal } from './journal.js';

const SidecarSchema = z.object({
  v: z.literal(1),
  leases: z.array(z.object({ id: z.string(), reader: z.string(), until: z.number(), keys: z.array(z.string()) })),
});

/** The leases of an inbox (none when the sidecar is missing). @throws FILE_CORRUPT */
export async function readLeases(ctx: FsContext, team: string, agent: string): Promise<LeaseRecord[]> {
  const path = ctx.layout.leasePath(team, agent);
  const read = await readJsonFile(path);
  if (read.state === 'missing') return [];
  const parsed = SidecarSchema.safeParse(read.value);
  if (!parsed.success) throw corruptFile(path, parsed.error, 'does not match the lease format');
  return parsed.data.leases;
}

/**
 * Writes the leases (the caller holds the inbox lock, checked right before the rename): a temp file
 * renamed into place, like every write, but **not fsynced** — a take is on the delivery path of every
 * model call, and what a power loss could lose here is only leases, whose entries then count as
 * unleased (handed out again to the restarted reader, which lost its conversation anyway). A process
 * crash loses nothing: the rename is atomic either way.
 */
async function writeLeases(ctx: FsContext, team: string, agent: string, leases: readonly LeaseRecord[], lock: HeldLock): Promise<void> {
  const path = ctx.layout.leasePath(team, agent);
  await ensureDir(dirname(path));
  const tmp = tempPathFor(path);
  try {
    await writeFile(tmp, formatJson({ v: 1, leases }), { flag: 'wx', mode: FILE_MODE });
    await lock.assertHeld(`writing ${path}`);
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}

/** Hands out unread entries not held by a live lease (see the module comment). */
export async function takeUnread(ctx: FsContext, team: string, agent: string, options: TakeOptions): Promise<Transition<Lease>> {
  const now = nowOf(options);
  const until = now + (options.leaseMs ?? DEFAULT_LEASE_MS);
  const empty = (remaining: number): Transition<Lease> => ({ value: { id: '', reader: options.reader, until, entries: [], remaining }, events: [] });
  // Most takes find nothing unread: they need neither the lock nor the sidecar.
  if (!(await readInbox(ctx, team, agent)).some(isUnreadEntry)) return empty(0);
  const taken = await withInbox(ctx, team, agent, async (inbox) => {
    const leases = liveLeases(await readLeases(ctx, team, agent), now);
    const selection = selectTake(inbox.entries, leases, now, options.limit);
    if (selection.taken.length === 0) return { result: empty(selection.remaining), write: false };
    const lease: LeaseRecord = { id: randomUUID(), reader: options.reader, until, keys: selection.taken.map(entryKey) };
    await writeLeases(ctx, team, agent, [...leases, lease], inbox.lock);
    const s = stampOf(team, options);
    const events = lease.keys.map((k) => deliveryEvent(s, agent, k, 'delivered', lease.id));
    await journal(ctx, team, events);
    return { result: { value: { id: lease.id, reader: options.reader, until, entries: selection.taken, remaining: selection.remaining }, events }, write: false };
  }, true);
  return taken ?? empty(0);
}

/** Marks a lease's entries read (all, or those in `keys`) and ends the lease. @returns how many turned read */
export async function acknowledge(ctx: FsContext, team: string, agent: string, leaseId: string, options: OpContext & { keys?: readonly string[] } = {}): Promise<Transition<number>> {
  const now = nowOf(options);
  const events: TeamEventRecord[] = [];
  const count = await withInbox(ctx, team, agent, async (inbox) => {
    const leases = await readLeases(ctx, team, agent);
    const lease = leases.find((l) => l.id === leaseId);
    if (!lease) return { result: 0, write: false };
    const marked = markEntries(inbox.entries, new Set(acknowledgedKeys(lease, leases, now, options.keys)));
    if (marked.length > 0) await writeJsonFile(ctx.layout.inboxPath(team, agent), inbox.raw, inbox.lock);
    await writeLeases(ctx, team, agent, liveLeases(leases, now).filter((l) => l.id !== leaseId), inbox.lock);
    const s = stampOf(team, options);
    events.push(...marked.map((k) => deliveryEvent(s, agent, k, 'read', leaseId)));
    await journal(ctx, team, events);
    return { result: marked.length, write: false };
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
  const events: TeamEventRecord[] = [];
  const count = await withInbox(ctx, team, agent, async (inbox) => {
    const leases = await readLeases(ctx, team, agent);
    const ended = leases.filter(match);
    if (ended.length === 0) return { result: 0, write: false };
    await writeLeases(ctx, team, agent, liveLeases(leases, now).filter((l) => !match(l)), inbox.lock);
    const unread = new Set(inbox.entries.filter(isUnreadEntry).map(entryKey));
    const s = stampOf(team, op);
    for (const l of ended) for (const k of l.keys) if (unread.has(k)) events.push(deliveryEvent(s, agent, k, 'released', l.id));
    await journal(ctx, team, events);
    return { result: events.length, write: false };
  });
  return { value: count ?? 0, events };
}
