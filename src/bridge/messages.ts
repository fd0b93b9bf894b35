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
import { bridgeCopy, type SharedIds } from './identity.js';

/** The two sides of one inbox. */
export interface InboxSides {
  team: string;
  member: string;
  local: TeamStore;
  remote: TeamStore;
  /** Reads one copy of the inbox (the bridge's cache, else the store). */
  read(side: 'local' | 'remote'): Promise<InboxEntry[]>;
  /** This step wrote a copy: its cached read is stale. */
  wrote(side: 'local' | 'remote'): void;
  /** Whether the inbox exists on a side (a missing one removed nothing); asked only when a synced entry is gone from it. */
  exists(side: 'local' | 'remote'): Promise<boolean>;
  /** The shared ids of the team's entries, remembered between steps. */
  ids: SharedIds;
  /** Called before the step's first write to either store (the bridge finishes saving its state). */
  beforeWrite(): Promise<void>;
}

/** What one inbox sync did. */
export interface InboxSyncResult {
  /** Shared ids on both sides after the step (the new synced set of the inbox). */
  synced: string[];
  toRemote: number;
  toLocal: number;
  readRemote: number;
  readLocal: number;
}

/** Syncs one inbox (see the module comment); `synced` is the inbox's synced set before the step. */
export async function syncInbox(sides: InboxSides, synced: ReadonlySet<string>): Promise<InboxSyncResult> {
  const { team, member, local, remote } = sides;
  const [localEntries, remoteEntries] = await Promise.all([sides.read('local'), sides.read('remote')]);
  // The indexes are shared with later steps (SharedIds): this step's copies go in overlays.
  const here = overlay(sides.ids.index('local', member, localEntries));
  const there = overlay(sides.ids.index('remote', member, remoteEntries));
  const toRemote = missing(here, there, synced);
  const toLocal = missing(there, here, synced);
  const ctx = { actor: 'mailroom-bridge' };
  if (toRemote.length + toLocal.length > 0) await sides.beforeWrite();
  if (toRemote.length > 0) {
    sides.wrote('remote');
    await remote.appendMessages(team, toRemote.map(([id, e]) => ({ to: member, entry: bridgeCopy(e, id) })), ctx);
  }
  if (toLocal.length > 0) {
    sides.wrote('local');
    await local.appendMessages(team, toLocal.map(([id, e]) => ({ to: member, entry: bridgeCopy(e, id) })), ctx);
  }
  for (const [id, e] of toRemote) there.add(id, bridgeCopy(e, id));
  for (const [id, e] of toLocal) here.add(id, bridgeCopy(e, id));
  const markRemote = await readKeys(there, here, synced, () => sides.exists('local'));
  const markLocal = await readKeys(here, there, synced, () => sides.exists('remote'));
  if (markRemote.length + markLocal.length > 0) await sides.beforeWrite();
  if (markRemote.length > 0) sides.wrote('remote');
  if (markLocal.length > 0) sides.wrote('local');
  const readRemote = markRemote.length > 0 ? (await remote.markRead(team, member, markRemote, ctx)).value : 0;
  const readLocal = markLocal.length > 0 ? (await local.markRead(team, member, markLocal, ctx)).value : 0;
  const both = new Set<string>();
  for (const [id] of here.entries()) if (there.has(id) || synced.has(id)) both.add(id);
  for (const [id] of there.entries()) if (synced.has(id)) both.add(id);
  return { synced: [...both], toRemote: toRemote.length, toLocal: toLocal.length, readRemote, readLocal };
}

/** One copy of the inbox by shared id: the entries read, then the copies this step added to it. */
interface Copy {
  get(id: string): InboxEntry | undefined;
  has(id: string): boolean;
  add(id: string, entry: InboxEntry): void;
  entries(): Iterable<[string, InboxEntry]>;
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
  };
}

/** Entries of `from` the other side lacks and that were never synced, in inbox order. */
function missing(from: Copy, to: Copy, synced: ReadonlySet<string>): Array<[string, InboxEntry]> {
  const out: Array<[string, InboxEntry]> = [];
  for (const [id, e] of from.entries()) if (!to.has(id) && !synced.has(id)) out.push([id, e]);
  return out;
}

/**
 * Store keys of unread entries of `target` whose copy on the other side is read — or gone from an
 * inbox that exists there, after it was synced (removed as read or delivered).
 */
async function readKeys(target: Copy, other: Copy, synced: ReadonlySet<string>, otherExists: () => Promise<boolean>): Promise<string[]> {
  const keys: string[] = [];
  let exists: boolean | undefined;
  for (const [id, e] of target.entries()) {
    if (!isUnreadEntry(e)) continue;
    const twin = other.get(id);
    let readThere = twin !== undefined && !isUnreadEntry(twin);
    if (!twin && synced.has(id)) readThere = exists ??= await otherExists();
    if (readThere) keys.push(entryKey(e));
  }
  return keys;
}
