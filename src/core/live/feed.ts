/**
 * The one fan-out of a team's changes (issue 15 item 3): one store watch per team and process, its
 * hints handed to every subscriber, a safety-net tick, and the journal's events read after a cursor
 * when the store hints that it grew. `watch` and `log --follow` (core/live/follow.ts, cli/live/log.ts),
 * MCP waits and resource updates (src/mcp/) and the runtime's wake-ups (runtime/wake/waiter.ts) all
 * consume it. Hints say "re-read" and name members and task ids; they never carry data.
 */
import type { TeamEventRecord } from '../../protocol/events.js';
import type { Cursor, StoreHint, TeamStore, WatchHandle, WatchOptions } from '../../store/team-store.js';
import { teamOf, type StoreRef } from '../context.js';

/** A hint from the store, or the periodic safety-net tick. */
export type FeedHint = StoreHint | { kind: 'tick' };

/** Default safety-net period (ms): subscribers re-read this often in case a hint was missed. */
export const DEFAULT_POLL_MS = 2_000;

/** Options of {@link TeamFeed}. */
export interface FeedOptions {
  /** Safety-net tick period in ms (default {@link DEFAULT_POLL_MS}); `0`: no tick. */
  pollMs?: number | undefined;
  /**
   * Hint reader-claim changes (default true; {@link WatchOptions.claims}). False for a feed whose
   * subscribers never read presence — a teammate's own feed (its waiter ignores claims hints) — so
   * that the other members' beats do not wake it (issue 24 item 3).
   */
  claims?: boolean | undefined;
}

/** A listener armed for the next matching hint; `cancel()` disarms it. */
export interface ArmedHint {
  /** Resolves on the first matching hint after arming. */
  promise: Promise<FeedHint>;
  cancel(): void;
}

/** The fan-out of one team (see the module comment). Close it when done. */
export class TeamFeed {
  private readonly listeners = new Set<(hint: FeedHint) => void>();
  private watch: Promise<WatchHandle> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  readonly store: TeamStore;

  /** A feed that starts on the first {@link start} (MCP starts it on the first wait). */
  constructor(
    root: StoreRef,
    readonly team: string,
    private readonly options: FeedOptions = {},
  ) {
    this.store = teamOf({ root });
  }

  /** Opens a feed and starts it: resolves once the watch is live (every later change is hinted). */
  static async open(root: StoreRef, team: string, options: FeedOptions = {}): Promise<TeamFeed> {
    const feed = new TeamFeed(root, team, options);
    await feed.start();
    return feed;
  }

  /** Starts watching (once); resolves when live. */
  async start(): Promise<void> {
    if (this.closed) return;
    this.watch ??= this.store.watch(this.team, (hint) => this.emit(hint), { claims: this.options.claims });
    try {
      await this.watch;
    } catch (err) {
      this.watch = undefined;
      throw err;
    }
    const period = this.options.pollMs ?? DEFAULT_POLL_MS;
    if (period > 0 && this.timer === undefined && !this.closed) {
      this.timer = setInterval(() => this.emit({ kind: 'tick' }), period);
      this.timer.unref();
    }
  }

  /** Calls `listener` on every hint until the returned function is called. */
  subscribe(listener: (hint: FeedHint) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Arms a one-shot listener for the next hint `match` accepts. Arm it *before* re-reading. */
  next(match: (hint: FeedHint) => boolean): ArmedHint {
    let off: () => void = () => undefined;
    const promise = new Promise<FeedHint>((resolve) => {
      off = this.subscribe((hint) => {
        if (!match(hint)) return;
        off();
        resolve(hint);
      });
    });
    return { promise, cancel: () => off() };
  }

  /**
   * Calls `listener` with each page of events journalled after `since` (from the journal's start
   * when undefined), read when the store hints the journal grew and on every tick; one read at a
   * time, in order. @returns the function that stops it
   */
  events(listener: (events: TeamEventRecord[]) => void, since?: Cursor): () => void {
    let cursor = since;
    let reading: Promise<void> | undefined;
    let again = false;
    const read = async (): Promise<void> => {
      const page = await this.store.readEvents(this.team, { since: cursor });
      cursor = page.cursor;
      if (page.events.length > 0) listener(page.events);
    };
    const pull = (): void => {
      if (reading) {
        again = true;
        return;
      }
      reading = read()
        .catch(() => undefined)
        .finally(() => {
          reading = undefined;
          if (again) {
            again = false;
            pull();
          }
        });
    };
    const off = this.subscribe((hint) => {
      if (hint.kind === 'events' || hint.kind === 'tick') pull();
    });
    pull();
    return off;
  }

  /** Stops the watch and the tick, and drops every listener. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.listeners.clear();
    const watch = this.watch;
    this.watch = undefined;
    if (watch) await watch.then((h) => h.close(), () => undefined);
  }

  private emit(hint: FeedHint): void {
    for (const listener of [...this.listeners]) listener(hint);
  }
}
