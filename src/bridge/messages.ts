/**
 * One inbox, both ways (docs/bridge.md "Messages"): each message on one side and not yet synced is
 * appended on the other with its shared id as `msg_id` (the destination stores nothing when it
 * already holds that id: a copy made just before a kill -9 is not made twice); a message read on
 * either side is marked read on the other; a synced message one side removed since (a read entry
 * archived, or a delivered one dropped by Claude Code 2.1.332) counts as read there and is never
 * copied back. Local writes go through the filesystem store (Claude Code's lock protocol).
 */
import { entryKey, isUnreadEntry } from '../domain/entries.js';
import type { InboxEntry } from '../protocol/inbox.js';
import type { TeamStore } from '../store/team-store.js';
import { testFreeze } from '../test-freeze.js';
import { bridgeCopy } from './identity.js';
import type { CopyRead } from './inbox-mirror.js';

/** The two sides of one inbox. */
export interface InboxSides {
  team: string;
  member: string;
  local: TeamStore;
  remote: TeamStore;
  /** One copy of the inbox by shared id, and what changed in it since the last step (the bridge's {@link InboxMirror}). */
  read(side: 'local' | 'remote'): Promise<CopyRead>;
  /** This step wrote a copy: the next step reads what it wrote. */
  wrote(side: 'local' | 'remote'): void;
  /**
   * Why a synced entry (by shared id) is gone from a side; asked only when one is. `none`: the inbox
   * is not there (a missing inbox removed nothing). `read`: removed as read — from Claude Code's
   * files any removal (2.1.332 drops what it delivered, an archive moves the read head; neither
   * leaves a trace to check), from Redis an entry in the inbox's archive or a dead letter. `lost`:
   * Redis does not hold it anywhere — the server restarted from an older snapshot, or a failover
   * lost writes: it is copied again, never taken as read.
   */
  gone(side: 'local' | 'remote', id: string): Promise<'none' | 'read' | 'lost'>;
  /**
   * The inbox's first step since the bridge started: a local message it would copy to Redis is
   * first looked for in Redis's archive and dead letters. A bridge killed after copying it and before
   * saving that step finds it there when Redis's reader read and archived it meanwhile: it was
   * delivered, so it joins the synced set and is not delivered again.
   */
  restarted: boolean;
  /**
   * On the inbox's first step since the start: whether an entry with this shared id as `msg_id` was
   * ever written into the local inbox — the local journal holds its `message` event, which the
   * files store writes under the inbox's lock right after the write. A bridge killed after copying
   * a message into a Claude Code file and before saving that step finds it here when Claude Code
   * 2.1.332 delivered and removed it meanwhile: it was delivered, so it joins the synced set and is
   * not copied again (docs/bridge.md "Restart").
   */
  landedLocal?(id: string): Promise<boolean>;
  /** Called before the step's first write to either store (the bridge finishes saving its state). */
  beforeWrite(): Promise<void>;
}

/** What one inbox sync did. */
export interface InboxSyncResult {
  /** Shared ids to add to the inbox's synced set (now on both sides). */
  add: string[];
  /** Shared ids to drop from it (neither side holds them any more). */
  drop: string[];
  toRemote: number;
  toLocal: number;
  readRemote: number;
  readLocal: number;
}

/**
 * Syncs one inbox (see the module comment); `synced` is the inbox's synced set before the step.
 * After a step every entry of either copy is in the synced set (copied, or on both sides already),
 * so when neither copy was read in full, only what changed since the last step can need a copy or a
 * read mark: the step looks at those entries alone, and its cost does not grow with the history.
 * A full read of either side (the first step, a rewrite the store could not read as a change)
 * compares the whole copies.
 */
export async function syncInbox(sides: InboxSides, synced: ReadonlySet<string>): Promise<InboxSyncResult> {
  const { team, member, local, remote } = sides;
  const [localRead, remoteRead] = await Promise.all([sides.read('local'), sides.read('remote')]);
  // The indexes are the mirror's, kept for later steps: this step's copies go in overlays.
  const here = overlay(localRead.byId);
  const there = overlay(remoteRead.byId);
  const changed = localRead.changed && remoteRead.changed ? [...new Set([...localRead.changed, ...remoteRead.changed])] : undefined;
  const delivered: string[] = [];
  const toRemote = await missing(here, there, synced, changed, (id) => sides.gone('remote', id), sides.restarted ? delivered : undefined);
  let toLocal = await missing(there, here, synced, changed, undefined, undefined); // Claude Code's files lose nothing on their own
  if (sides.restarted && sides.landedLocal && toLocal.length > 0) toLocal = await notLanded(toLocal, sides.landedLocal, delivered);
  if (delivered.length > 0) synced = new Set([...synced, ...delivered]);
  const ctx = { actor: 'mailroom-bridge' };
  if (toRemote.length + toLocal.length > 0) await sides.beforeWrite();
  if (toRemote.length > 0) {
    sides.wrote('remote');
    await remote.appendMessages(team, toRemote.map(([id, e]) => ({ to: member, entry: bridgeCopy(e, id) })), ctx);
  }
  if (toLocal.length > 0) {
    sides.wrote('local');
    await local.appendMessages(team, toLocal.map(([id, e]) => ({ to: member, entry: bridgeCopy(e, id) })), ctx);
    testFreeze('bridge-copied', `${team}/${member}`);
  }
  for (const [id, e] of toRemote) there.add(id, bridgeCopy(e, id));
  for (const [id, e] of toLocal) here.add(id, bridgeCopy(e, id));
  const markRemote = await readKeys(there, here, synced, changed, (id) => sides.gone('local', id));
  const markLocal = await readKeys(here, there, synced, changed, (id) => sides.gone('remote', id));
  if (markRemote.length + markLocal.length > 0) await sides.beforeWrite();
  if (markRemote.length > 0) sides.wrote('remote');
  if (markLocal.length > 0) sides.wrote('local');
  const readRemote = markRemote.length > 0 ? (await remote.markRead(team, member, markRemote, ctx)).value : 0;
  const readLocal = markLocal.length > 0 ? (await local.markRead(team, member, markLocal, ctx)).value : 0;
  const change = syncedChange(here, there, synced, changed);
  return { add: [...change.add, ...delivered], drop: change.drop, toRemote: toRemote.length, toLocal: toLocal.length, readRemote, readLocal };
}

/**
 * How the synced set changes: ids on both sides join it; after a full comparison, ids neither
 * side holds leave it (an id on one side only stays: the other side removed it as read).
 */
function syncedChange(here: Copy, there: Copy, synced: ReadonlySet<string>, changed: readonly string[] | undefined): { add: string[]; drop: string[] } {
  const add: string[] = [];
  for (const id of changed ?? here.ids()) if (!synced.has(id) && here.has(id) && there.has(id)) add.push(id);
  if (changed) return { add, drop: [] };
  const drop: string[] = [];
  for (const id of synced) if (!here.has(id) && !there.has(id)) drop.push(id);
  return { add, drop };
}

/** One copy of the inbox by shared id: the entries read, then the copies this step added to it. */
interface Copy {
  get(id: string): InboxEntry | undefined;
  has(id: string): boolean;
  add(id: string, entry: InboxEntry): void;
  entries(): Iterable<[string, InboxEntry]>;
  ids(): Iterable<string>;
}

function overlay(read: ReadonlyMap<string, InboxEntry>): Copy {
  const added = new Map<string, InboxEntry>();
  return {
    get: (id) => read.get(id) ?? added.get(id),
    has: (id) => read.has(id) || added.has(id),
    add: (id, entry) => void (read.has(id) || added.set(id, entry)),
    *entries() {
      yield* read;
      yield* added;
    },
    *ids() {
      yield* read.keys();
      yield* added.keys();
    },
  };
}

/**
 * Entries of `from` the other side lacks and that were never synced, or that it lost, in inbox
 * order (among `changed` only, when given; `gone` undefined: the other side never loses one). With
 * `delivered`, a never-synced entry the other side removed as read (its archive or dead letters
 * hold it) is not copied but pushed there.
 */
async function missing(from: Copy, to: Copy, synced: ReadonlySet<string>, changed: readonly string[] | undefined, gone: ((id: string) => Promise<string>) | undefined, delivered: string[] | undefined): Promise<Array<[string, InboxEntry]>> {
  const out: Array<[string, InboxEntry]> = [];
  for (const [id, e] of among(from, changed)) {
    if (to.has(id)) continue;
    if (synced.has(id) ? gone === undefined || (await gone(id)) !== 'lost' : delivered !== undefined && gone !== undefined && (await gone(id)) === 'read') {
      if (!synced.has(id)) delivered!.push(id);
      continue;
    }
    out.push([id, e]);
  }
  return out;
}

/** The entries of `candidates` never written into the local inbox; the ids of the others go to `delivered`. */
async function notLanded(candidates: Array<[string, InboxEntry]>, landed: (id: string) => Promise<boolean>, delivered: string[]): Promise<Array<[string, InboxEntry]>> {
  const out: Array<[string, InboxEntry]> = [];
  for (const c of candidates) {
    if (await landed(c[0])) delivered.push(c[0]);
    else out.push(c);
  }
  return out;
}

/** The entries of a copy, or those of `changed` it holds. */
function* among(copy: Copy, changed: readonly string[] | undefined): Iterable<[string, InboxEntry]> {
  if (!changed) return yield* copy.entries();
  for (const id of changed) {
    const e = copy.get(id);
    if (e) yield [id, e];
  }
}

/**
 * Store keys of unread entries of `target` whose copy on the other side is read — or gone from an
 * inbox that exists there, after it was synced, removed as read or delivered (not lost: see `gone`).
 */
async function readKeys(target: Copy, other: Copy, synced: ReadonlySet<string>, changed: readonly string[] | undefined, otherGone: (id: string) => Promise<string>): Promise<string[]> {
  const keys: string[] = [];
  for (const [id, e] of among(target, changed)) {
    if (!isUnreadEntry(e)) continue;
    const twin = other.get(id);
    let readThere = twin !== undefined && !isUnreadEntry(twin);
    if (!twin && synced.has(id)) readThere = (await otherGone(id)) === 'read';
    if (readThere) keys.push(entryKey(e));
  }
  return keys;
}
