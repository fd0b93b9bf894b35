/**
 * Every message a tracker has seen, in timestamp order, with which ones are still in an inbox.
 * A message is known by {@link messageKey}; its entry is kept as first seen, and its `status`
 * (unread / read) comes from the inbox as last read ({@link messageStatus}): an entry gone from
 * an inbox that still exists was removed by its reader — Claude Code 2.1.332 deletes an entry once
 * delivered — or moved to mailroom's archive once read, so it counts as read, never as lost.
 */
import type { InboxEntry } from '../../protocol/inbox.js';
import { parseMessageText } from '../../protocol/structured.js';
import { describeText } from './describe.js';
import { messageKey } from './journal-observed.js';
import type { MessageView } from './snapshot.js';

/** A known message without its status. */
export type MessageRecord = Omit<MessageView, 'status' | 'removed'>;

/** The read flags of the entries an inbox held when it was last read, by {@link messageKey}. */
export type InboxPresence = ReadonlyMap<string, boolean>;

/**
 * The read state of a known message, from its inbox as last read (`present`; undefined when the
 * inbox was never seen existing): unread or read while it is in the inbox; **read, and `removed`,
 * once it is gone from an inbox that exists** (its reader removed it: Claude Code 2.1.332 deletes
 * delivered entries and the entries it already saw read; or mailroom archived it, which it does
 * only to read entries). With no inbox to look at, or when the message became known after the
 * inbox's last read (`unchecked`: the journal's event came first), the entry's own recorded `read`
 * flag decides.
 */
export function messageStatus(present: InboxPresence | undefined, key: string, recorded: InboxEntry, unchecked = false): Pick<MessageView, 'status' | 'removed'> {
  if (present === undefined) return { status: recorded.read === true ? 'read' : 'unread' };
  const read = present.get(key);
  // Known since that read (`unchecked`: a journal event ahead of the inbox's next read): not gone yet.
  if (read === undefined) return unchecked ? { status: recorded.read === true ? 'read' : 'unread' } : { status: 'read', removed: true };
  return { status: read ? 'read' : 'unread' };
}

/** See the module comment. */
export class MessageBook {
  private readonly records = new Map<string, MessageRecord>();
  private readonly ordered: MessageRecord[] = [];
  /** Per inbox: key → read flag of the entries present at the last read. */
  private readonly inboxes = new Map<string, Map<string, boolean>>();
  private fresh: MessageRecord[] = [];
  private cache: MessageView[] | undefined;
  /** Views by key, reused while their status is unchanged (fewer allocations per snapshot). */
  private readonly viewOf = new Map<string, MessageView>();
  /** Keys known (from the journal or an archive) since their inbox's last read, and not in it. */
  private readonly unchecked = new Set<string>();

  /** True once the agent's inbox was read. */
  hasInbox(agent: string): boolean {
    return this.inboxes.has(agent);
  }

  /**
   * Replaces what is known to be in `agent`'s inbox; entries not seen before become new records.
   * `undefined`: the inbox file does not exist (never created, or gone with its team): what was
   * known of it stays, since nobody read what it held.
   */
  setInbox(agent: string, entries: readonly InboxEntry[] | undefined): void {
    if (entries === undefined) return;
    const present = new Map<string, boolean>();
    for (const entry of entries) {
      const key = messageKey(agent, entry);
      present.set(key, entry.read === true);
      this.add(key, agent, entry);
    }
    if (!samePresence(this.inboxes.get(agent), present)) this.cache = undefined;
    this.inboxes.set(agent, present);
    for (const key of this.unchecked) {
      if (this.records.get(key)?.to !== agent) continue;
      this.unchecked.delete(key); // checked against this read: gone now means removed
      this.cache = undefined;
    }
  }

  /** Adds a message known from the journal or an inbox archive (a no-op when already known). */
  addKnown(to: string, entry: InboxEntry): void {
    const key = messageKey(to, entry);
    const present = this.inboxes.get(to);
    if (!this.records.has(key) && present !== undefined && !present.has(key)) this.unchecked.add(key);
    this.add(key, to, entry);
  }

  /** Records added since the last {@link takeNew}, without clearing them. */
  peekNew(): readonly MessageRecord[] {
    return this.fresh;
  }

  /** Records added since the last call, oldest first; clears the list. */
  takeNew(): MessageRecord[] {
    const out = this.fresh;
    this.fresh = [];
    return out;
  }

  /** Every message, oldest first, with its status. */
  views(): MessageView[] {
    this.cache ??= this.ordered.map((r) => {
      const state = messageStatus(this.inboxes.get(r.to), r.key, r.entry, this.unchecked.has(r.key));
      const known = this.viewOf.get(r.key);
      if (known?.status === state.status && known.removed === state.removed) return known;
      const view: MessageView = { ...r, ...state };
      this.viewOf.set(r.key, view);
      return view;
    });
    return this.cache;
  }

  private add(key: string, to: string, entry: InboxEntry): void {
    if (this.records.has(key)) return;
    const parsed = parseMessageText(entry.text);
    const record: MessageRecord = { key, to, entry, parsed, line: describeText(parsed) };
    this.records.set(key, record);
    this.ordered.splice(this.insertionPoint(entry.timestamp), 0, record);
    this.fresh.push(record);
    this.cache = undefined;
  }

  /** Index after the last record whose timestamp is <= `timestamp` (binary search). */
  private insertionPoint(timestamp: string): number {
    let lo = 0;
    let hi = this.ordered.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.ordered[mid]!.entry.timestamp <= timestamp) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

function samePresence(a: ReadonlyMap<string, boolean> | undefined, b: ReadonlyMap<string, boolean>): boolean {
  if (!a || a.size !== b.size) return false;
  for (const [key, read] of b) if (a.get(key) !== read) return false;
  return true;
}
