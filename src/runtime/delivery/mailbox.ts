/**
 * A teammate's view of its own inbox: the unread entries in delivery order, and acknowledging
 * them once they went into a model request. Reading never marks anything read
 * (../shared/cases/04): an entry stays unread on disk until {@link Mailbox.acknowledge}.
 */
import { entryKey, markRead } from '../../core/inbox.js';
import type { InboxEntry } from '../../protocol/inbox.js';
import { isUnread } from '../../protocol/inbox.js';
import type { Store } from '../../store/store.js';
import { orderForDelivery } from './order.js';

/** The inbox of one teammate. */
export class Mailbox {
  constructor(
    private readonly store: Store,
    private readonly team: string,
    private readonly agent: string,
    private readonly lead: string,
  ) {}

  /** Unread entries in delivery order (shutdown_request, the lead's, then oldest first). */
  async unread(): Promise<InboxEntry[]> {
    const entries = await this.store.readInbox(this.team, this.agent);
    return orderForDelivery(entries.filter(isUnread), this.lead);
  }

  /** True when at least one entry is unread. */
  async hasUnread(): Promise<boolean> {
    return (await this.store.readInbox(this.team, this.agent)).some(isUnread);
  }

  /** Marks `entries` read (matched by msg_id, else from+timestamp+text). */
  async acknowledge(entries: readonly InboxEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await markRead({ root: this.store, team: this.team, agent: this.agent, entries });
  }
}

export { entryKey };
