/**
 * Delivery order of unread messages (reference §7.1): a `shutdown_request` first, then the lead's
 * messages, then everything else oldest first (file order is arrival order). The sort is stable,
 * so each group keeps arrival order.
 */
import type { InboxEntry } from '../../protocol/inbox.js';
import { parseMessageText } from '../../protocol/structured.js';

/** True when the entry's text is a `shutdown_request` protocol message. */
export function isShutdownRequest(entry: InboxEntry): boolean {
  const parsed = parseMessageText(entry.text);
  return parsed.kind === 'structured' && parsed.message.type === 'shutdown_request';
}

/** Returns `entries` (in file order) reordered for delivery; the input is not changed. */
export function orderForDelivery(entries: readonly InboxEntry[], lead: string): InboxEntry[] {
  const rank = (e: InboxEntry): number => (isShutdownRequest(e) ? 0 : e.from === lead ? 1 : 2);
  return entries
    .map((entry, index) => ({ entry, index, rank: rank(entry) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((x) => x.entry);
}
