/**
 * The loop of one teammate: wait for work, run a turn, send idle_notification; leave after an
 * approved shutdown. Also logs mail noticed while busy (it is delivered before the next model
 * call, never marked read before).
 */
import type { FeedHint, TeamFeed } from '../core/live/feed.js';
import { runHooks, type HookOutcome } from '../core/teams/hooks.js';
import { askPlanApproval, type PermissionAnswer } from '../core/messages/ask-lead.js';
import { CATALOGUE } from '../tools/all.js';

/** Told to a teammate in plan mode before each planning turn. */
const PLAN_MODE_NOTE = '<plan-mode>You are in plan mode (planModeRequired): change nothing yet — only read-only tools are available. Reply with your plan as text; the lead approves it before you start.</plan-mode>';

/** The tools of plan mode: the read-only ones. */
const PLAN_CATALOGUE = CATALOGUE.withRules('*', { name: 'plan-mode', enabled: (scope) => CATALOGUE.get(scope.tool)?.hints.readOnly === true });
import type { ReaderLease } from '../core/members/reader-claim.js';
import { completeShutdown } from '../core/members/shutdown.js';
import { HeldClaims } from '../core/tasks/fencing.js';
import type { TeammateContext } from './context.js';
import { Conversation } from './conversation.js';
import { Mailbox } from './delivery/mailbox.js';
import { TeamView } from './delivery/team-view.js';
import { SenderView } from '../core/teams/sender-view.js';
import { idleFields, sendIdleNotification } from './lifecycle/idle.js';
import { openAskFrom, reply } from '../core/messages/ask.js';
import { sendMessage } from '../core/messages/send.js';
import type { TeammateExit, TeammateOptions, TeammateState } from './teammate.js';
import { appendTurns, loadTurns, type TranscriptRef } from './transcript.js';
import { runTurn, type TurnOutcome } from './turn.js';
import { Waiter, type WakeReason } from './wake/waiter.js';
import { WorkFinder, type Work } from './work.js';
import { traceMark } from '../trace-marks.js';

/** The wait → turn → idle cycle of one teammate (see {@link runTeammate}). */
export class TeammateLoop {
  private readonly mailbox: Mailbox;
  private readonly finder: WorkFinder;
  private readonly waiter: Waiter<Work>;
  private readonly conversation = new Conversation();
  private state: TeammateState = 'starting';
  private readonly log: (line: string) => void;
  private retry: NodeJS.Timeout | undefined;
  /** In plan mode (the member's planModeRequired) until the lead approves a plan. */
  private planning: boolean;
  /** The fields of the last idle_notification sent (for `idleNotifications: changes`). */
  private lastIdle: string | undefined;
  /** The fencing tokens of this process's claims (docs/runtime.md "Fencing tokens"). */
  private readonly claims = new HeldClaims();
  /** The kept reads of the team for the guard and the prompt (a store with view stamps), else undefined. */
  private readonly view: TeamView | undefined;
  /** The view this teammate's sends go under (its tools', its reports'): one round trip per send on Redis. */
  private readonly senderView: SenderView;
  /** A `working` presence not written yet: it goes out once the turn's first model request did (see {@link setState}). */
  private workingDue = false;

  constructor(
    private readonly ctx: TeammateContext,
    private readonly options: TeammateOptions,
    private readonly feed: TeamFeed,
    private readonly reader: ReaderLease,
    /** The member's `joinedAt`: whose transcript lines are this member's. */
    private readonly joinedAt?: number,
  ) {
    this.log = options.log ?? (() => undefined);
    this.planning = options.planMode === true;
    this.mailbox = new Mailbox(ctx.store, ctx.team, ctx.name, ctx.lead, reader.token, (step) => reader.fence(step), () => reader.confirm());
    this.finder = new WorkFinder(ctx.store.team, ctx.team, ctx.name, this.mailbox, options.takesTasks ?? true, this.claims);
    const team = ctx.store.team;
    const stamp = team.changeStamp ? () => team.changeStamp!(ctx.team, ctx.name) : undefined;
    this.waiter = new Waiter<Work>(feed, ctx.name, options.takesTasks ?? true, stamp);
    this.view = TeamView.supports(team) ? new TeamView(team, ctx.team) : undefined;
    this.senderView = new SenderView({ root: ctx.store, team: ctx.team });
  }

  /** Runs until the teammate stops. */
  async run(): Promise<TeammateExit> {
    await this.restoreTranscript();
    // Redis: the looks a send to this member publishes for it alone (TeamStore.watchInboxLooks), so a
    // woken teammate's request goes out before its take commits, as on files. Without them (refused,
    // failed): take first, as before.
    const team = this.ctx.store.team;
    const looks = await team.watchInboxLooks?.(this.ctx.team, this.ctx.name).catch(() => undefined);
    const unsubscribe = this.feed.subscribe((hint) => {
      this.view?.onHint(hint);
      this.senderView.onHint(hint);
      this.noticeWhileBusy(hint);
    });
    try {
      return await this.loop();
    } finally {
      unsubscribe();
      await looks?.close().catch(() => undefined);
      this.view?.close();
      if (this.retry) clearTimeout(this.retry);
      this.waiter.close();
      this.setState('stopped');
    }
  }

  private async loop(): Promise<TeammateExit> {
    let feedback: string | undefined;
    for (;;) {
      if (feedback === undefined) {
        this.setState('idle');
        const work = await this.waiter.next((reason) => this.findWork(reason), this.ctx.signal);
        if (work === undefined || this.ctx.signal.aborted) return { reason: 'aborted' };
        if (work.kind === 'removed') return { reason: 'removed' };
        this.setState('working');
        if (work.kind === 'task') this.conversation.queue({ type: 'text', text: WorkFinder.note(work.task, this.ctx.name) });
      } else {
        // A TeammateIdle hook's feedback (Claude Code's exit-2 semantics) or the lead's answer to a plan starts the next turn.
        this.conversation.queue({ type: 'text', text: feedback });
        feedback = undefined;
      }
      if (this.planning) this.conversation.queue({ type: 'text', text: PLAN_MODE_NOTE });
      const outcome = await this.turn();
      if (outcome === undefined) return { reason: 'aborted' };
      this.options.onTurn?.(outcome.error === undefined ? { failed: false } : { failed: true, reason: errorText(outcome.error) });
      if (outcome.record.shutdownApproved) return this.leave(outcome.record.shutdownApproved.requestId);
      if (outcome.record.hookStop) return this.stopByHook(outcome.record.hookStop.reason);
      if (this.planning && outcome.steps > 0 && outcome.error === undefined) {
        const answer = await this.askPlan(outcome.record.lastText ?? '');
        if (answer === undefined) return { reason: 'aborted' };
        if (answer.approved) this.planning = false;
        feedback = answer.approved
          ? `<plan-approval>The lead approved your plan${answer.reason ? `: ${answer.reason}` : ''}. Carry it out now.</plan-approval>`
          : `<plan-approval>The lead did not approve your plan: ${answer.reason ?? 'no reason given'}. Revise it and reply with the new plan only.</plan-approval>`;
        continue;
      }
      if (outcome.error === undefined) await this.reportUnsentText(outcome);
      if (outcome.steps > 0 && outcome.error === undefined) {
        const idle = await this.idleHooks();
        if (idle.kind === 'stop') return this.stopByHook(idle.reason);
        if (idle.kind === 'block') {
          this.log(`TeammateIdle hook blocked going idle: ${idle.feedback}`);
          feedback = `<teammate-idle-hook-feedback>\n${idle.feedback}\n</teammate-idle-hook-feedback>`;
          continue;
        }
      }
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
      const deps = { model: this.options.model, mailbox: this.mailbox, tools: { store, team, name, lead, cwd, signal, feed: this.feed, claims: this.claims, catalogue: this.planning ? PLAN_CATALOGUE : undefined, senderView: this.senderView }, log: this.log, view: this.view };
      const outcome = await runTurn(this.conversation, { ...deps, maxSteps: this.options.maxSteps, onRequest: this.options.onRequest, onModelAsked: () => this.modelAsked() });
      if (outcome.error !== undefined) this.log(`turn failed: ${errorText(outcome.error)}`);
      await this.saveTranscript();
      return outcome;
    } catch (err) {
      if (signal.aborted) return undefined;
      throw err;
    }
  }

  /** Turns already in the transcript (restored or appended). */
  private saved = 0;

  private transcriptRef(): TranscriptRef {
    return { host: this.ctx.store.host, team: this.ctx.team, name: this.ctx.name, joinedAt: this.joinedAt };
  }

  private async restoreTranscript(): Promise<void> {
    if (!this.options.transcript) return;
    try {
      const turns = await loadTurns(this.transcriptRef());
      this.conversation.restore(turns);
      this.saved = turns.length;
      if (turns.length > 0) this.log(`restored ${turns.length} turns of the earlier conversation from the transcript`);
    } catch (err) {
      this.log(`could not read the transcript (starting afresh): ${errorText(err)}`);
    }
  }

  /** Appends the turns settled since the last save (a failed write is logged; the next save retries them). */
  private async saveTranscript(): Promise<void> {
    if (!this.options.transcript) return;
    // A runtime whose claim was taken over writes nothing more: the member's transcript is its successor's.
    if (this.reader.signal.aborted) return;
    const settled = this.conversation.settled;
    if (settled <= this.saved) return;
    try {
      await appendTurns(this.transcriptRef(), this.conversation.messages.slice(this.saved, settled));
      this.saved = settled;
    } catch (err) {
      this.log(`could not write the transcript: ${errorText(err)}`);
    }
  }

  private async findWork(reason: WakeReason): Promise<Work | undefined> {
    try {
      return await this.finder.find(reason);
    } catch (err) {
      this.log(`could not check for work (will retry): ${errorText(err)}`);
      return undefined;
    }
  }

  /**
   * No lost report (#82687): a turn that ended with text but messaged neither the lead nor everyone
   * sends that text to the lead, marked `auto_sent: "turn-text"` — as the reply to the lead's oldest
   * open ask, if there is one.
   */
  private async reportUnsentText(outcome: TurnOutcome): Promise<void> {
    const text = outcome.record.lastText?.trim();
    const messaged = outcome.record.messaged ?? [];
    // A turn that lost its task (TASK_FENCED) already told the lead; its text is not the outcome.
    if (outcome.record.lostTasks?.length) return;
    if (this.options.reportUnsentText === false || !text || messaged.includes(this.ctx.lead) || messaged.includes('*') || this.ctx.name === this.ctx.lead) return;
    const { store, team, name, lead } = this.ctx;
    try {
      const extras = { auto_sent: 'turn-text' };
      const summary = 'report (sent by mailroom: the turn ended without a message)';
      const asked = await openAskFrom({ root: store, team, member: name, asker: lead });
      if (asked !== undefined) await reply({ root: store, team, from: name, inReplyTo: asked, text, summary, extras });
      else await sendMessage({ root: store, team, from: name, to: lead, text, summary, extras, senderView: this.senderView });
      this.log(`the turn ended with text but no message to ${lead}: sent it to ${lead}`);
    } catch (err) {
      this.log(`could not send the turn's text to ${lead}: ${errorText(err)}`);
    }
  }

  private async notifyIdle(outcome: TurnOutcome): Promise<void> {
    const fields = JSON.stringify(idleFields(outcome));
    if ((this.options.idleNotifications ?? 'changes') === 'changes' && fields === this.lastIdle) {
      this.log('idle again with nothing new: no idle_notification (idleNotifications: changes)');
      return;
    }
    try {
      await sendIdleNotification(this.ctx.store, this.ctx.team, this.ctx.name, this.ctx.lead, outcome, this.senderView);
      this.lastIdle = fields;
    } catch (err) {
      this.log(`could not send idle_notification: ${errorText(err)}`);
    }
  }

  /** Runs the TeammateIdle hooks (input: teammate_name, team_name); a broken hooks file is logged and ignored. */
  private async idleHooks(): Promise<HookOutcome> {
    try {
      return await runHooks({ root: this.ctx.store, team: this.ctx.team, event: 'TeammateIdle', input: { teammate_name: this.ctx.name }, cwd: this.ctx.cwd, report: this.log });
    } catch (err) {
      this.log(`could not run the TeammateIdle hooks: ${errorText(err)}`);
      return { kind: 'proceed' };
    }
  }

  /** Sends the plan to the lead and waits for its answer (undefined: the teammate stopped meanwhile). */
  private async askPlan(plan: string): Promise<PermissionAnswer | undefined> {
    this.log('plan mode: sent the plan to the lead; waiting for approval');
    try {
      const answer = await askPlanApproval({ root: this.ctx.store, team: this.ctx.team, from: this.ctx.name, plan: plan || '(no plan text)', signal: this.ctx.signal, feed: this.feed });
      this.log(`plan ${answer.approved ? 'approved' : `not approved: ${answer.reason ?? ''}`}`);
      return answer;
    } catch (err) {
      if (this.ctx.signal.aborted) return undefined;
      throw err;
    }
  }

  private stopByHook(reason: string): TeammateExit {
    this.log(`stopped by a hook: ${reason}`);
    return { reason: 'hook', stopReason: reason };
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

  /**
   * Presence off the delivery's path (issue 24): `working` (a beat and the member's `isActive`, two
   * store writes) is written right after the turn's first model request was made, not before it —
   * on Redis's one connection those writes and their replies would come before what the request
   * waits for; on files the config's lock, read, fsynced write and rename and the claim's write
   * took the thread pool and the CPU while the guard's reads and the request were being made
   * (A/B against main, docs/performance.md: the agent's share 0.80–0.86× at load 8). Order is
   * kept: a due `working` is always written before the `idle` (or stop) that follows it, so
   * presence and `isActive` never end a turn saying `working`.
   */
  private setState(state: TeammateState): void {
    if (this.state === state) return;
    this.state = state;
    if (state === 'working') {
      this.workingDue = true;
    } else {
      this.writePresence();
      void this.reader.setState('idle');
    }
    this.options.onState?.(state);
  }

  /** The model was asked: the due `working` goes out once the request has left (the SDK sends it within this tick's work). */
  private modelAsked(): void {
    if (this.workingDue) setImmediate(() => this.writePresence());
  }

  /** Writes a due `working` now. */
  private writePresence(): void {
    if (!this.workingDue) return;
    this.workingDue = false;
    traceMark('presence-working');
    void this.reader.setState('working');
  }
}

async function peek(mailbox: Mailbox): Promise<number> {
  return (await mailbox.unread().catch(() => [])).length;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
