/**
 * The loop of one teammate: wait for work, run a turn, send idle_notification; leave after an
 * approved shutdown. Also logs mail noticed while busy (it is delivered before the next model
 * call, never marked read before).
 */
import type { FeedHint, TeamFeed } from '../core/feed.js';
import type { ReaderLease } from '../core/reader-claim.js';
import { completeShutdown } from '../core/shutdown.js';
import type { TeammateContext } from './context.js';
import { Conversation } from './conversation.js';
import { Mailbox } from './delivery/mailbox.js';
import { sendIdleNotification } from './lifecycle/idle.js';
import type { TeammateExit, TeammateOptions, TeammateState } from './teammate.js';
import { runTurn, type TurnOutcome } from './turn.js';
import { Waiter } from './wake/waiter.js';
import { WorkFinder, type Work } from './work.js';

/** The wait → turn → idle cycle of one teammate (see {@link runTeammate}). */
export class TeammateLoop {
  private readonly mailbox: Mailbox;
  private readonly finder: WorkFinder;
  private readonly waiter: Waiter<Work>;
  private readonly conversation = new Conversation();
  private state: TeammateState = 'starting';
  private readonly log: (line: string) => void;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly ctx: TeammateContext,
    private readonly options: TeammateOptions,
    private readonly feed: TeamFeed,
    private readonly reader: ReaderLease,
  ) {
    this.log = options.log ?? (() => undefined);
    this.mailbox = new Mailbox(ctx.store, ctx.team, ctx.name, ctx.lead, reader.token);
    this.finder = new WorkFinder(ctx.store.team, ctx.team, ctx.name, this.mailbox, options.takesTasks ?? true);
    this.waiter = new Waiter<Work>(feed, ctx.name, options.takesTasks ?? true);
  }

  /** Runs until the teammate stops. */
  async run(): Promise<TeammateExit> {
    const unsubscribe = this.feed.subscribe((hint) => this.noticeWhileBusy(hint));
    try {
      return await this.loop();
    } finally {
      unsubscribe();
      if (this.retry) clearTimeout(this.retry);
      this.waiter.close();
      this.setState('stopped');
    }
  }

  private async loop(): Promise<TeammateExit> {
    for (;;) {
      this.setState('idle');
      const work = await this.waiter.next(() => this.findWork(), this.ctx.signal);
      if (work === undefined || this.ctx.signal.aborted) return { reason: 'aborted' };
      if (work.kind === 'removed') return { reason: 'removed' };
      this.setState('working');
      if (work.kind === 'task') this.conversation.queue({ type: 'text', text: WorkFinder.note(work.task, this.ctx.name) });
      const outcome = await this.turn();
      if (outcome === undefined) return { reason: 'aborted' };
      if (outcome.record.shutdownApproved) return this.leave(outcome.record.shutdownApproved.requestId);
      if (outcome.steps > 0 || outcome.error !== undefined) await this.notifyIdle(outcome);
      if (outcome.error !== undefined) this.retryLater();
      this.waiter.poke();
    }
  }

  /** After a failed turn, the mail it put back is held back a while: wake up when it may be delivered again. */
  private retryLater(): void {
    const at = this.mailbox.retryAt();
    if (at === undefined) return;
    if (this.retry) clearTimeout(this.retry);
    this.retry = setTimeout(() => this.waiter.poke(), Math.max(0, at - Date.now()) + 5);
  }

  private async turn(): Promise<TurnOutcome | undefined> {
    const { store, team, name, lead, cwd, signal } = this.ctx;
    try {
      const deps = { model: this.options.model, mailbox: this.mailbox, tools: { store, team, name, lead, cwd, signal }, log: this.log };
      const outcome = await runTurn(this.conversation, { ...deps, maxSteps: this.options.maxSteps, onRequest: this.options.onRequest });
      if (outcome.error !== undefined) this.log(`turn failed: ${errorText(outcome.error)}`);
      return outcome;
    } catch (err) {
      if (signal.aborted) return undefined;
      throw err;
    }
  }

  private async findWork(): Promise<Work | undefined> {
    try {
      return await this.finder.find();
    } catch (err) {
      this.log(`could not check for work (will retry): ${errorText(err)}`);
      return undefined;
    }
  }

  private async notifyIdle(outcome: TurnOutcome): Promise<void> {
    try {
      await sendIdleNotification(this.ctx.store, this.ctx.team, this.ctx.name, this.ctx.lead, outcome);
    } catch (err) {
      this.log(`could not send idle_notification: ${errorText(err)}`);
    }
  }

  private async leave(requestId: string): Promise<TeammateExit> {
    const { store, team, name } = this.ctx;
    const done = await completeShutdown({ root: store, team, name });
    this.log(`shutdown approved (${requestId}); left the team${done.unassigned.length ? `, unassigned ${done.unassigned.map((t) => `#${t.id}`).join(', ')}` : ''}`);
    return { reason: 'shutdown', requestId };
  }

  private noticeWhileBusy(hint: FeedHint): void {
    if (this.state !== 'working' || hint.kind !== 'inbox' || hint.member !== this.ctx.name) return;
    void peek(this.mailbox).then((n) => {
      if (n > 0) this.log(`noticed ${n} unread message${n > 1 ? 's' : ''} while busy; delivering before the next model call`);
    });
  }

  private setState(state: TeammateState): void {
    if (this.state === state) return;
    this.state = state;
    void this.reader.setState(state === 'working' ? 'working' : 'idle');
    this.options.onState?.(state);
  }
}

async function peek(mailbox: Mailbox): Promise<number> {
  return (await mailbox.unread().catch(() => [])).length;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
