/**
 * Delivery states of many messages at once, kept up to date from the journal's `delivery` events
 * as they arrive (the incremental form of ./delivery-status.ts, whose rule it applies): queued →
 * delivered (handed out) → read → replied, or dead-lettered. For a live view that follows the
 * journal (the dashboard) instead of scanning it per message.
 */
import type { TeamEventRecord } from '../../protocol/events.js';
import type { InboxEntry } from '../../protocol/inbox.js';
import { entryKey } from '../../domain/entries.js';
import { DEAD_LETTERED, type DeliveryState } from './delivery-status.js';

/** What the journal said of one entry. */
interface Seen {
  delivered?: true;
  read?: true;
  deadLettered?: true;
}

/** The journal's delivery events, by recipient and entry key. */
export class DeliveryBook {
  private readonly seen = new Map<string, Seen>();

  /** Folds `events` in (only `delivery` events matter). */
  apply(events: readonly TeamEventRecord[]): void {
    for (const e of events) {
      if (e.kind !== 'delivery') continue;
      const id = `${e.to}\u0000${e.key}`;
      const s = this.seen.get(id) ?? {};
      if (e.state === 'delivered') s.delivered = true;
      if (e.state === 'read') s.read = true;
      if (e.state === 'dead-lettered') s.deadLettered = true;
      // Handed back after it was dead-lettered: a rejoining name got it back unread (as delivery-status.ts).
      if (e.state === 'released') delete s.deadLettered;
      this.seen.set(id, s);
    }
  }

  /**
   * The furthest state of `entry` in `to`'s inbox: dead-lettered when journalled so; replied when
   * `replied` (a reply to it is known); read when journalled or the entry is read; delivered when
   * handed out; else queued.
   */
  stateOf(to: string, entry: InboxEntry, o: { read: boolean; replied: boolean }): DeliveryState | typeof DEAD_LETTERED {
    const s = this.seen.get(`${to}\u0000${entryKey(entry)}`) ?? {};
    if (s.deadLettered) return DEAD_LETTERED;
    if (o.replied) return 'replied';
    if (s.read || o.read) return 'read';
    return s.delivered ? 'delivered' : 'queued';
  }
}
