/**
 * Inbox entry identity and ordering (docs/format.md §5): an entry is known by its `msg_id`, else
 * by (from, timestamp, text), the triple Claude Code 2.1.332 matches delivered entries on and keeps
 * unique within an inbox. Appends get timestamps that never decrease in file order. Pure; shared by
 * every store backend.
 */
import { createHash } from 'node:crypto';
import type { InboxEntry } from '../protocol/inbox.js';
import { parseMessageText } from '../protocol/structured.js';

/** Identity of an entry: its msg_id when it has one, else from+timestamp+text (unique per inbox). */
export function entryKey(entry: InboxEntry): string {
  return entry.msg_id ?? tripleKey(entry);
}

/** The (from, timestamp, text) triple as one string. */
export function tripleKey(entry: Pick<InboxEntry, 'from' | 'timestamp' | 'text'>): string {
  return `${entry.from}\u0000${entry.timestamp}\u0000${entry.text}`;
}

/** Identity of a message across inboxes and journal: recipient plus {@link entryKey}. */
export function messageKey(to: string, entry: InboxEntry): string {
  return `${to}\u0000${entryKey(entry)}`;
}

/**
 * Gives `incoming` (in append order) timestamps that keep the inbox ordered and its triples unique,
 * in place: each becomes at least the latest timestamp already in the inbox (or appended before it),
 * then moves 1 ms later while its triple is taken. `existing` are the inbox's valid entries in file
 * order. Runs under the inbox's lock (or inside the backend's atomic step), which is what makes the
 * order hold across writers (issue 9 item 7).
 */
export function assignTimestamps(existing: readonly InboxEntry[], incoming: readonly InboxEntry[]): void {
  const taken = new Set(existing.map(tripleKey));
  let latest = existing.reduce((max, e) => Math.max(max, timeOf(e)), Number.NEGATIVE_INFINITY);
  for (const entry of incoming) {
    let at = Math.max(timeOf(entry), latest);
    if (Number.isFinite(at) && at !== timeOf(entry)) entry.timestamp = new Date(at).toISOString();
    while (taken.has(tripleKey(entry))) {
      // An unparseable timestamp (a foreign entry copied in) that collides gets a valid one.
      at = Number.isFinite(timeOf(entry)) ? timeOf(entry) + 1 : 0;
      entry.timestamp = new Date(at).toISOString();
    }
    taken.add(tripleKey(entry));
    latest = Math.max(latest, timeOf(entry));
  }
}

function timeOf(entry: InboxEntry): number {
  const t = Date.parse(entry.timestamp);
  return Number.isNaN(t) ? Number.NEGATIVE_INFINITY : t;
}

/**
 * The msg_id an append with an idempotency key gives its entry for `to`: derived from the key, so
 * that a retry (or a racing twin) produces the same id and the store can tell the entry is there.
 * UUID-shaped, version 5 (name-based, SHA-derived) as RFC 9562 describes.
 */
export function idempotentMsgId(team: string, to: string, key: string): string {
  const h = createHash('sha256').update(`mailroom-idempotency\u0000${team}\u0000${to}\u0000${key}`).digest('hex');
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Unread: `read` is not `true` (Claude Code's rule). */
export function isUnreadEntry(entry: InboxEntry): boolean {
  return entry.read !== true;
}

/** True when the entry's text is a valid `shutdown_request` protocol message. */
export function isShutdownRequest(entry: InboxEntry): boolean {
  const parsed = parseMessageText(entry.text);
  return parsed.kind === 'structured' && parsed.message.type === 'shutdown_request';
}

/**
 * An unread `shutdown_request` timestamped before `joinedAt` (epoch ms): addressed to an earlier
 * member of the name, never to be taken by the member who joined then (docs/runtime.md "Shutdown").
 */
export function isEarlierShutdownRequest(entry: InboxEntry, joinedAt: number): boolean {
  return isUnreadEntry(entry) && isShutdownRequest(entry) && Date.parse(entry.timestamp) < joinedAt;
}
