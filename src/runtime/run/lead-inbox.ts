/**
 * The lead's inbox during `mailroom run`: this process is the lead, and the lead's only reader — it
 * holds the lead's reader claim for the run. Every new entry is taken (a lease), handed to
 * `onMessage` with the lead's member name (the run prints it: who did what), and then acknowledged,
 * since it was shown. Follows the team's feed; call `drain()` once more at the end to catch the
 * last entries. In a team signed on this machine every batch passes the readers' check first
 * (core/teams/signing.ts): an entry that fails is handed on with its text replaced by
 * `[withheld: <reason>]` (so a forged idle notice counts as nothing) and journalled as a refusal.
 */
import type { StoreRef } from '../../core/context.js';
import type { TeamFeed } from '../../core/live/feed.js';
import { leadName } from '../../domain/roster.js';
import { ReaderLease } from '../../core/members/reader-claim.js';
import type { InboxEntry } from '../../protocol/inbox.js';
import { ControlGuard, reportWithheld } from '../../core/teams/signing.js';

/** Follows the lead's inbox until `stop()`. */
export class LeadInbox {
  private busy: Promise<void> = Promise.resolve();
  private unsubscribe: (() => void) | undefined;
  private reader: ReaderLease | undefined;
  private lead = '';

  constructor(
    private readonly store: StoreRef,
    private readonly team: string,
    private readonly onMessage: (entry: InboxEntry, lead: string) => void,
  ) {}

  /** Takes the lead's reader claim and starts following; entries already unread are reported at once. @throws TEAMMATE_RUNNING */
  async start(feed: TeamFeed): Promise<void> {
    this.lead = leadName(await this.store.team.readConfig(this.team));
    this.reader = await ReaderLease.take(this.store, this.team, this.lead, 'in-process');
    this.unsubscribe = feed.subscribe((h) => {
      if ((h.kind === 'inbox' && h.member === this.lead) || h.kind === 'tick') void this.drain();
    });
    await this.drain();
  }

  /** Reports and acknowledges every unread entry (serialised: concurrent calls queue up). */
  drain(): Promise<void> {
    this.busy = this.busy.then(() => this.drainOnce()).catch(() => undefined);
    return this.busy;
  }

  /** Stops following (after a final drain) and gives the lead's reader claim up. */
  async stop(): Promise<void> {
    this.unsubscribe?.();
    await this.drain();
    await this.reader?.release();
  }

  private async drainOnce(): Promise<void> {
    if (!this.reader) return;
    const team = this.store.team;
    const { value } = await this.reader.fence(team.takeUnread(this.team, this.lead, { reader: this.reader.token, claim: this.reader.token }));
    if (value.entries.length === 0) return;
    const guard = new ControlGuard({ root: this.store, team: this.team }, this.lead);
    let unjudged: string | undefined;
    const refused = await guard.judge(value.entries).then(
      (j) => j.refused,
      (e: unknown) => {
        unjudged = `could not be verified on this machine: ${e instanceof Error ? e.message : String(e)}`;
        return [];
      },
    );
    await reportWithheld({ root: this.store, team: this.team }, this.lead, refused, 'runtime', () => undefined);
    const why = new Map(refused.map((r) => [r.entry, r.reason]));
    for (const entry of value.entries) {
      const reason = unjudged ?? why.get(entry);
      this.onMessage(reason === undefined ? entry : { ...entry, text: `[withheld: ${reason}]` }, this.lead);
    }
    // After showing them: a crash in between shows them again. mailroom reads this lead's inbox, so a large one's read head may move in the same step.
    await this.reader.fence(team.acknowledge(this.team, this.lead, value.id, { claim: this.reader.token, archiveRead: true }));
    if (unjudged === undefined) await guard.remember(value.entries.filter((e) => !why.has(e))).catch(() => undefined);
  }
}
