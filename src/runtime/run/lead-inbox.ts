/**
 * The lead's inbox during `mailroom run`: every new entry is handed to `onMessage` with the lead's
 * member name (the run prints it: who did what) and then marked read, since it was shown. Follows the team's hints; call
 * `drain()` once more at the end to catch the last entries.
 */
import { markRead } from '../../core/inbox.js';
import { leadName } from '../../core/members.js';
import { isUnread, type InboxEntry } from '../../protocol/inbox.js';
import type { Store } from '../../store/store.js';
import type { TeamSignals } from '../wake/signals.js';

/** Follows the lead's inbox until `stop()`. */
export class LeadInbox {
  private busy: Promise<void> = Promise.resolve();
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly store: Store,
    private readonly team: string,
    private readonly onMessage: (entry: InboxEntry, lead: string) => void,
  ) {}

  /** Starts following; entries already unread are reported at once. */
  async start(signals: TeamSignals): Promise<void> {
    const lead = leadName(await this.store.readConfig(this.team));
    this.unsubscribe = signals.subscribe((h) => {
      if ((h.kind === 'inbox' && h.agent === lead) || h.kind === 'tick') void this.drain();
    });
    await this.drain();
  }

  /** Reports and marks read every unread entry (serialised: concurrent calls queue up). */
  drain(): Promise<void> {
    this.busy = this.busy.then(() => this.drainOnce()).catch(() => undefined);
    return this.busy;
  }

  /** Stops following (after a final drain). */
  async stop(): Promise<void> {
    this.unsubscribe?.();
    await this.drain();
  }

  private async drainOnce(): Promise<void> {
    const lead = leadName(await this.store.readConfig(this.team));
    const fresh = (await this.store.readInbox(this.team, lead)).filter(isUnread);
    if (fresh.length === 0) return;
    for (const entry of fresh) this.onMessage(entry, lead);
    await markRead({ root: this.store, team: this.team, agent: lead, entries: fresh });
  }
}
