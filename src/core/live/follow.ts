/**
 * Following a team live: the team's feed (core/live/feed.ts: store hints, and a slow tick that catches
 * journal lines other processes append and retries reads that caught a file mid-write) → a short
 * debounce → {@link TeamTracker.apply}, one apply at a time. Used by `watch` (TUI and plain) and
 * `log --follow`.
 */
import type { StoreHint, WatchHandle } from '../../store/team-store.js';
import { teamOf, type StoreRef } from '../context.js';
import { TeamFeed, type FeedHint } from './feed.js';
import { TeamTracker, type TrackerUpdate } from './tracker.js';
import type { TeamSnapshot } from './snapshot.js';

/** Options of {@link followTeam}. */
export interface FollowOptions {
  /** The store (a filesystem root, or opened stores). */
  store: StoreRef;
  team: string;
  /** Journal what is seen on disk (`source: observed`). Default true. */
  record?: boolean;
  /** Hints arriving within this window are applied together (ms). Default 15. */
  debounceMs?: number;
  /** Re-check (journal tail, failed reads) at least this often (ms). Default 1000. */
  pollMs?: number;
  /** Called with each update that has events. Errors thrown here stop nothing. */
  onUpdate(update: TrackerUpdate): void;
  /** Called when applying a change fails (other than the retried torn reads). */
  onError?(error: unknown): void;
  /** Clock for journal times. */
  now?: () => number;
}

/** A running follow; `close()` stops watching and polling. */
export interface Following extends WatchHandle {
  /** The snapshot after loading (before any update). */
  initial: TeamSnapshot;
  /** The feed it follows (other consumers in the process may subscribe to it too). */
  feed: TeamFeed;
  /** The tracker's current snapshot. */
  current(): TeamSnapshot;
  /**
   * Resolves once the team is removed for good ({@link TeamSnapshot.ended}: Claude Code ended its
   * session), after the update reporting it was handed to `onUpdate`; at once when the team was
   * being removed when following started. Never rejects.
   */
  ended: Promise<void>;
}

/**
 * Checks that the team exists (watching creates the team's directories, so an unknown name must
 * not get that far), starts watching, then loads, so a change made during the load is not missed.
 * @throws TEAM_NOT_FOUND, FILE_CORRUPT (from the initial load)
 */
export async function followTeam(options: FollowOptions): Promise<Following> {
  const store = teamOf({ root: options.store });
  const tracker = new TeamTracker(store, options.team, { record: options.record ?? true, ...(options.now ? { now: options.now } : {}) });
  const queue: StoreHint[] = [];
  let loaded = false;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const flush = (): void => {
    timer = undefined;
    if (!loaded || closed || running) return;
    const changes = queue.splice(0);
    running = tracker.apply(changes).then(
      (update) => {
        if (update.events.length > 0) options.onUpdate(update);
        if (update.snapshot.ended) end();
        if (update.retry) schedule(100);
      },
      (err: unknown) => options.onError?.(err),
    ).finally(() => {
      running = undefined;
      if (queue.length > 0) schedule(0);
    });
  };
  const schedule = (ms: number): void => {
    if (!closed && timer === undefined) timer = setTimeout(flush, ms);
  };

  await store.readConfig(options.team);
  let end: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => (end = resolve));
  const feed = new TeamFeed(options.store, options.team, { pollMs: options.pollMs ?? 1000 });
  if (await store.teamRemoval(options.team)) {
    // Claude Code is deleting the team: show it as it was, but do not watch (watching would create
    // the team's directories again, leaving a team-less `tasks/<team>/` behind). The feed is never started.
    const initial = await tracker.load();
    end();
    return { initial, feed, current: () => tracker.snapshot(), ended, close: () => feed.close() };
  }
  feed.subscribe((hint: FeedHint) => {
    if (hint.kind === 'tick') return schedule(0);
    // Claims (heartbeats) come every 5 s per running member: batched with the next tick or change.
    queue.push(hint);
    schedule(hint.kind === 'claims' ? 250 : (options.debounceMs ?? 15));
  });
  await feed.start();
  let initial: TeamSnapshot;
  try {
    initial = await tracker.load();
  } catch (err) {
    await feed.close();
    throw err;
  }
  loaded = true;
  if (queue.length > 0) schedule(0);
  if (initial.ended) end();
  return {
    initial,
    feed,
    current: () => tracker.snapshot(),
    ended,
    close: async () => {
      closed = true;
      if (timer) clearTimeout(timer);
      await running;
      await feed.close();
    },
  };
}
