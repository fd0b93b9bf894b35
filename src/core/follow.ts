/**
 * Following a team live: store watch hints → a short debounce → {@link TeamTracker.apply}, one
 * apply at a time, plus a slow poll that catches journal lines other processes append and retries
 * reads that caught a file mid-write. Used by `watch` (TUI and plain) and `log --follow`.
 */
import type { Store, StoreChange, WatchHandle } from '../store/store.js';
import { TeamTracker, type TrackerUpdate } from './tracker.js';
import type { TeamSnapshot } from './snapshot.js';

/** Options of {@link followTeam}. */
export interface FollowOptions {
  store: Store;
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
  const tracker = new TeamTracker(options.store, options.team, { record: options.record ?? true, ...(options.now ? { now: options.now } : {}) });
  const queue: StoreChange[] = [];
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

  await options.store.readConfig(options.team);
  let end: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => (end = resolve));
  if (await options.store.teamRemoval(options.team)) {
    // Claude Code is deleting the team: show it as it was, but do not watch (watching would create
    // the team's directories again, leaving a team-less `tasks/<team>/` behind).
    const initial = await tracker.load();
    end();
    return { initial, current: () => tracker.snapshot(), ended, close: async () => undefined };
  }
  const handle = await options.store.watch(options.team, (change) => {
    queue.push(change);
    schedule(options.debounceMs ?? 15);
  });
  let initial: TeamSnapshot;
  try {
    initial = await tracker.load();
  } catch (err) {
    await handle.close();
    throw err;
  }
  loaded = true;
  if (queue.length > 0) schedule(0);
  const poll = setInterval(() => schedule(0), options.pollMs ?? 1000);
  if (initial.ended) end();
  return {
    initial,
    current: () => tracker.snapshot(),
    ended,
    close: async () => {
      closed = true;
      clearInterval(poll);
      if (timer) clearTimeout(timer);
      await running;
      await handle.close();
    },
  };
}
