/**
 * A teammate's view of its own inbox: the unread entries in delivery order, and acknowledging
 * them once they went into a model request. Reading never marks anything read
 * (../shared/cases/04): an entry stays unread on disk until {@link Mailbox.acknowledge}. Entries
 * taken for a request are "in flight" until acknowledged, so they are not delivered twice.
 */
import { entryKey, markRead } from '../../core/inbox.js';
import type { InboxEntry } from '../../protocol/inbox.js';
import { isUnread } from '../../protocol/inbox.js';
import type { Store } from '../../store/store.js';
import { orderForDelivery } from './order.js';

/**
 * Read entries a mailroom-run teammate lets pile up in its own inbox before it moves them to the
 * archive (docs/format.md "Inbox archive"): the runtime is this inbox's only reader and matches
 * entries by msg_id, so shifting indices is safe here, and a send's cost stays flat (case 03).
 */
export const ARCHIVE_AFTER_READ = 200;

/** The inbox of one teammate. */
export class Mailbox {
  private readonly inFlight = new Set<string>();
  /** Read entries seen in the inbox at the last read. */
  private readSeen = 0;

  constructor(
    private readonly store: Store,
    private readonly team: string,
    private readonly agent: string,
    private readonly lead: string,
  ) {}

  /** Unread entries not in flight, in delivery order (shutdown_request, the lead's, then oldest first). */
  async unread(): Promise<InboxEntry[]> {
    const entries = await this.store.readInbox(this.team, this.agent);
    this.readSeen = entries.length - entries.filter(isUnread).length;
    return orderForDelivery(entries.filter((e) => isUnread(e) && !this.inFlight.has(entryKey(e))), this.lead);
  }

  /** True when at least one entry is unread and not in flight. */
  async hasUnread(): Promise<boolean> {
    return (await this.unread()).length > 0;
  }

  /** Takes the unread entries for a model request: they are in flight until {@link acknowledge}. */
  async take(): Promise<InboxEntry[]> {
    const entries = await this.unread();
    for (const e of entries) this.inFlight.add(entryKey(e));
    return entries;
  }

  /** Marks `entries` read (matched by msg_id, else from+timestamp+text) and lands them. */
  async acknowledge(entries: readonly InboxEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await markRead({ root: this.store, team: this.team, agent: this.agent, entries });
    for (const e of entries) this.inFlight.delete(entryKey(e));
    if (this.readSeen + entries.length >= ARCHIVE_AFTER_READ) {
      await this.store.archiveInbox(this.team, this.agent);
      this.readSeen = 0;
    }
  }
}
