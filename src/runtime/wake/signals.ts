/**
 * Wake-up hints for the teammates of one team: one store watch (chokidar for the filesystem
 * store) shared by every subscriber, plus a periodic tick as a safety net for missed events
 * (network file systems, editors that replace directories). Hints say "re-read", never carry data.
 */
import type { Store, StoreChange, WatchHandle } from '../../store/store.js';

/** A hint: a store change, or the periodic safety-net tick. */
export type WakeHint = StoreChange | { kind: 'tick' };

/** Default safety-net period (ms): an idle teammate re-reads its inbox this often. */
export const DEFAULT_POLL_MS = 2_000;

/** Options of {@link TeamSignals.open}. */
export interface TeamSignalsOptions {
  /** Safety-net period in ms (default {@link DEFAULT_POLL_MS}). */
  pollMs?: number;
}

/** Fans one team's store changes out to subscribers. Close it when done. */
export class TeamSignals {
  private readonly listeners = new Set<(hint: WakeHint) => void>();
  private timer: NodeJS.Timeout | undefined;
  private watch: WatchHandle | undefined;

  private constructor(private readonly pollMs: number) {}

  /** Starts watching `team`; resolves once the watch is live (changes after that are reported). */
  static async open(store: Store, team: string, options: TeamSignalsOptions = {}): Promise<TeamSignals> {
    const signals = new TeamSignals(options.pollMs ?? DEFAULT_POLL_MS);
    signals.watch = await store.watch(team, (change) => signals.emit(change));
    signals.timer = setInterval(() => signals.emit({ kind: 'tick' }), signals.pollMs);
    return signals;
  }

  /** Calls `listener` on every hint until the returned function is called. */
  subscribe(listener: (hint: WakeHint) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops the watch and the timer. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.listeners.clear();
    await this.watch?.close();
    this.watch = undefined;
  }

  private emit(hint: WakeHint): void {
    for (const listener of [...this.listeners]) listener(hint);
  }
}
