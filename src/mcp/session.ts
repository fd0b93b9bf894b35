/**
 * What every MCP tool and resource works with: the stores, the team, who "I" am, the team's feed
 * (one store watch, started on the first wait or resource subscription), this server's reader
 * claim, and a stderr logger (stdout carries only the protocol).
 */
import { HeldClaims } from '../core/tasks/fencing.js';
import { MailroomError } from '../errors.js';
import { TeamFeed } from '../core/live/feed.js';
import { SenderView } from '../core/teams/sender-view.js';
import { sendStructured } from '../core/messages/send.js';
import type { ReaderLease } from '../core/members/reader-claim.js';
import { HandOut } from './handout.js';
import type { Stores } from '../store/selection.js';

/** Writes one diagnostic line. Never stdout: that is the MCP channel. */
export type Logger = (line: string) => void;

/** The default {@link Logger}: `mailroom mcp: <line>` on stderr. */
export const stderrLogger: Logger = (line) => {
  process.stderr.write(`mailroom mcp: ${line}\n`);
};

/** State shared by the tools of one MCP server. */
export class McpSession {
  /** The team's feed (started on first use). */
  readonly feed: TeamFeed;
  /** Messages handed to the client and not acknowledged yet (./handout.ts). */
  readonly handOut: HandOut;
  /** The fencing tokens of the tasks this server's member claimed (docs/runtime.md "Fencing tokens"). */
  readonly claims = new HeldClaims();
  private consuming: Promise<unknown> = Promise.resolve();
  private readonly closing = new AbortController();

  constructor(
    readonly store: Stores,
    readonly team: string,
    /** The member name this server acts as (sender, claimant, inbox owner). */
    readonly me: string,
    readonly log: Logger = stderrLogger,
    /** This server's reader claim on `me`'s inbox (without one, the server cannot read its inbox). */
    readonly reader?: ReaderLease,
  ) {
    this.feed = new TeamFeed(store, team, { pollMs: 0 });
    this.senderView = new SenderView({ root: store, team });
    // Hints arrive once the feed is started (a wait or a watch): till then a moved view is found at the send (VIEW_MOVED) and read again there.
    this.feed.subscribe((hint) => this.senderView.onHint(hint));
    this.handOut = new HandOut(this);
  }

  /** The options every core use case takes, with this server's kept view for its sends (one round trip per send on Redis). */
  get target(): { root: Stores; team: string; senderView: SenderView } {
    return { root: this.store, team: this.team, senderView: this.senderView };
  }

  /** The view this server's sends go under (core/teams/sender-view.ts). */
  private readonly senderView: SenderView;

  /**
   * The token that takes from this member's inbox.
   * @throws TEAMMATE_RUNNING when the claim was lost (another reader took it over) or never held
   */
  readerToken(): string {
    if (!this.reader) throw new MailroomError('TEAMMATE_RUNNING', `This MCP server holds no reader claim on ${this.me}'s inbox, so it cannot read it.`, { details: { team: this.team, name: this.me } });
    if (this.reader.signal.aborted) throw this.reader.signal.reason instanceof MailroomError ? this.reader.signal.reason : new MailroomError('TEAMMATE_RUNNING', `${this.me}'s reader claim was taken over by another reader.`);
    return this.reader.token;
  }

  /**
   * Runs `fn` after every earlier consumer finished, so two concurrent inbox reads of this server
   * run one after the other (each hand-out is also atomic in the store).
   */
  consume<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.consuming.then(fn, fn);
    this.consuming = run.catch(() => undefined);
    return run;
  }

  /** Aborted by {@link close}: pending waits end at once instead of holding the process open. */
  get closed(): AbortSignal {
    return this.closing.signal;
  }

  /**
   * Presence around one tool call (docs/mcp.md "Presence"): waiting for a message is `idle`, any
   * other call (and a wait that returned messages) is `working`; the reader claim carries it and
   * keeps the member's `isActive` as Claude Code does.
   */
  async noteCall(toolId: string): Promise<void> {
    if (toolId === 'wait_for_message') return this.reader?.setState('idle');
    return this.working();
  }

  /**
   * After a wait_for_message: messages mean work; a timeout sends the lead one `idle_notification`
   * (`idleReason: available`), as a Claude Code teammate does when its turn ends — not again until
   * the member worked in between. Never throws.
   */
  async noteWaitEnded(timedOut: boolean, lead: string): Promise<void> {
    if (!timedOut) return this.working();
    await this.reader?.setState('idle');
    if (this.idleSent || this.me === lead) return;
    this.idleSent = true;
    await sendStructured({ ...this.target, from: this.me, to: lead, message: { type: 'idle_notification', idleReason: 'available' } }).catch((err: unknown) => {
      this.idleSent = false;
      this.log(`could not send idle_notification: ${err instanceof Error ? err.message : String(err)}`);
    });
  }

  private idleSent = false;

  private async working(): Promise<void> {
    this.idleSent = false;
    await this.reader?.setState('working');
  }

  /** Ends pending waits, releases the feed and gives the reader claim up. */
  async close(): Promise<void> {
    this.closing.abort();
    await this.feed.close();
    await this.reader?.release();
  }
}
