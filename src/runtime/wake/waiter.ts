/**
 * Waiting for work without busy work: sleeps until a hint of the team's feed that concerns this
 * teammate arrives (its inbox, the task board, the config, or the safety-net tick), then re-reads
 * through `check`. A hint that arrives while `check` runs is not lost: it makes the waiter check
 * again. Journal and reader-claim hints never wake it (every beat and every delivery would).
 *
 * `check` is told why it runs: `inboxOnly` when nothing but hints for this member's inbox came in
 * since the last check (a send to it: the check need not re-read the roster or the board). A
 * safety-net tick re-reads only when the store's {@link TeamStore.changeStamp} — a `stat` of the
 * files a check reads, on files — differs from the one taken before the last full check, and in
 * full every {@link FULL_CHECK_EVERY} ticks all the same (issue 24 item 3: an idle process agent
 * costs a few system calls per tick, not a read and parse of config, inbox and board).
 */
import type { FeedHint, TeamFeed } from '../../core/live/feed.js';
import { traceMark } from '../../trace-marks.js';

/** Why a check runs: `inboxOnly` when only this member's inbox was hinted since the last check. */
export interface WakeReason {
  inboxOnly: boolean;
}

/** Decides whether there is work; `undefined` means keep waiting. */
export type WorkCheck<W> = (reason: WakeReason) => Promise<W | undefined>;

/** A tick re-reads in full at least this often (in ticks: 60 s at the default 2 s poll), whatever the stamp says. */
export const FULL_CHECK_EVERY = 30;

/** One teammate's waiter. Call {@link Waiter.close} when the teammate stops. */
export class Waiter<W> {
  /** Something other than the member's inbox changed (or nothing was checked yet): check in full. */
  private dirty = true;
  /** The member's inbox was hinted. */
  private inbox = false;
  /** A safety-net tick came: compare the stamp. */
  private ticked = false;
  private ticksSinceFull = 0;
  /** The store's stamp taken before the last full check (undefined: none yet, or no stamp). */
  private stamped: string | undefined;
  private wake: (() => void) | undefined;
  private readonly unsubscribe: () => void;

  constructor(
    feed: TeamFeed,
    /** Whose inbox matters (`undefined`: every inbox). */
    private readonly member: string | undefined,
    private readonly watchTasks: boolean,
    /** The store's change stamp for this member ({@link TeamStore.changeStamp}); without it every tick checks in full. */
    private readonly stamp?: () => Promise<string>,
  ) {
    this.unsubscribe = feed.subscribe((hint) => this.onHint(hint));
  }

  /**
   * Resolves with the first work `check` finds, or `undefined` once `signal` aborts.
   * `check` runs at once, then again after each relevant hint.
   */
  async next(check: WorkCheck<W>, signal: AbortSignal): Promise<W | undefined> {
    while (!signal.aborted) {
      if (this.ticked) {
        this.ticked = false;
        await this.tickChanged();
      }
      if (this.dirty || this.inbox) {
        const reason = { inboxOnly: !this.dirty && this.member !== undefined };
        if (!reason.inboxOnly) await this.takeStamp();
        this.dirty = this.inbox = false;
        const work = await check(reason);
        if (work !== undefined) return work;
        continue;
      }
      if (this.ticked) continue; // a tick came while the stamp was taken
      await this.sleep(signal);
    }
    return undefined;
  }

  /** Marks the state as changed (e.g. after the teammate's own turn): the next check is a full one. */
  poke(): void {
    this.dirty = true;
    this.wake?.();
  }

  /** Stops listening to hints. */
  close(): void {
    this.unsubscribe();
    this.wake?.();
  }

  /** A tick: marks a full check due when the stamp moved, no stamp is kept, or it is time for a full re-read anyway. */
  private async tickChanged(): Promise<void> {
    if (!this.stamp || this.stamped === undefined || ++this.ticksSinceFull >= FULL_CHECK_EVERY) {
      this.dirty = true;
      return;
    }
    const now = await this.stamp().catch(() => undefined);
    if (now !== this.stamped) this.dirty = true;
  }

  /** Takes the stamp before a full check reads (a change during the check then shows at the next tick). */
  private async takeStamp(): Promise<void> {
    this.ticksSinceFull = 0;
    this.stamped = this.stamp ? await this.stamp().catch(() => undefined) : undefined;
  }

  private onHint(hint: FeedHint): void {
    if (!this.concerns(hint)) return;
    if (hint.kind === 'tick') this.ticked = true;
    else if (hint.kind === 'inbox' && this.member !== undefined) (this.inbox = true), traceMark('hint-inbox');
    else (this.dirty = true), traceMark('hint-dirty');
    this.wake?.();
  }

  private concerns(hint: FeedHint): boolean {
    switch (hint.kind) {
      case 'inbox':
        return this.member === undefined || hint.member === this.member;
      case 'task':
        return this.watchTasks;
      case 'events':
      case 'claims':
        return false;
      default:
        return true;
    }
  }

  /**
   * Waits for a hint, a poke, a close or the abort. Marks `wait-asleep` (src/trace-marks.ts): from
   * here on the teammate reads nothing until one of those comes, so mail sent after the mark (with
   * no poke due and a long poll) is found only through its inbox hint: the store's watch.
   */
  private sleep(signal: AbortSignal): Promise<void> {
    traceMark('wait-asleep');
    return new Promise<void>((resolve) => {
      const done = () => {
        this.wake = undefined;
        signal.removeEventListener('abort', done);
        resolve();
      };
      this.wake = done;
      signal.addEventListener('abort', done, { once: true });
    });
  }
}
