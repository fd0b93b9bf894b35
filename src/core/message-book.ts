/**
 * Every message a tracker has seen, in timestamp order, with which ones are still in an inbox.
 * A message is known by {@link messageKey}; its entry is kept as first seen, and its `status`
 * (unread / read / delivered) comes from the inbox as last read.
 */
import type { InboxEntry } from '../protocol/inbox.js';
import { parseMessageText } from '../protocol/structured.js';
import { describeText } from './describe.js';
import { messageKey } from './journal.js';
import type { MessageView } from './snapshot.js';

/** A known message without its status. */
export type MessageRecord = Omit<MessageView, 'status'>;

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

  /** True once the agent's inbox was read. */
  hasInbox(agent: string): boolean {
    return this.inboxes.has(agent);
  }

  /** Replaces what is known to be in `agent`'s inbox; entries not seen before become new records. */
  setInbox(agent: string, entries: readonly InboxEntry[]): void {
    const present = new Map<string, boolean>();
    for (const entry of entries) {
      const key = messageKey(agent, entry);
      present.set(key, entry.read === true);
      this.add(key, agent, entry);
    }
    if (!samePresence(this.inboxes.get(agent), present)) this.cache = undefined;
    this.inboxes.set(agent, present);
  }

  /** Adds a message known from the journal or an inbox archive (a no-op when already known). */
  addKnown(to: string, entry: InboxEntry): void {
    this.add(messageKey(to, entry), to, entry);
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
      const status = this.statusOf(r);
      const known = this.viewOf.get(r.key);
      if (known?.status === status) return known;
      const view = { ...r, status };
      this.viewOf.set(r.key, view);
      return view;
    });
    return this.cache;
  }

  private statusOf(r: MessageRecord): MessageView['status'] {
    const read = this.inboxes.get(r.to)?.get(r.key);
    if (read === undefined) return 'delivered';
    return read ? 'read' : 'unread';
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
