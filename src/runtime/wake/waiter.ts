/**
 * Waiting for work without busy work: sleeps until a hint of the team's feed that concerns this
 * teammate arrives (its inbox, the task board, the config, or the safety-net tick), then re-reads
 * through `check`. A hint that arrives while `check` runs is not lost: it makes the waiter check
 * again. Journal and reader-claim hints never wake it (every beat and every delivery would).
 */
import type { FeedHint, TeamFeed } from '../../core/live/feed.js';

/** Decides whether there is work; `undefined` means keep waiting. */
export type WorkCheck<W> = () => Promise<W | undefined>;

/** One teammate's waiter. Call {@link Waiter.close} when the teammate stops. */
export class Waiter<W> {
  private dirty = true;
  private wake: (() => void) | undefined;
  private readonly unsubscribe: () => void;

  constructor(
    feed: TeamFeed,
    /** Whose inbox matters (`undefined`: every inbox). */
    private readonly member: string | undefined,
    private readonly watchTasks: boolean,
  ) {
    this.unsubscribe = feed.subscribe((hint) => this.onHint(hint));
  }

  /**
   * Resolves with the first work `check` finds, or `undefined` once `signal` aborts.
   * `check` runs at once, then again after each relevant hint.
   */
  async next(check: WorkCheck<W>, signal: AbortSignal): Promise<W | undefined> {
    while (!signal.aborted) {
      if (this.dirty) {
        this.dirty = false;
        const work = await check();
        if (work !== undefined) return work;
        continue;
      }
      await this.sleep(signal);
    }
    return undefined;
  }

  /** Marks the state as changed (e.g. after the teammate's own turn). */
  poke(): void {
    this.dirty = true;
    this.wake?.();
  }

  /** Stops listening to hints. */
  close(): void {
    this.unsubscribe();
    this.wake?.();
  }

  private onHint(hint: FeedHint): void {
    if (!this.concerns(hint)) return;
    this.poke();
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

  private sleep(signal: AbortSignal): Promise<void> {
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
