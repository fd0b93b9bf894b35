/**
 * One store watch per MCP server, started on first use and shared by every waiter and resource
 * subscription. Changes are hints to re-read (see {@link Store.watch}); nothing here polls.
 */
import type { Store, StoreChange, WatchHandle } from '../store/store.js';

/** A listener armed for the next matching change; `cancel()` disarms it. */
export interface ArmedHint {
  /** Resolves on the first matching change after arming. */
  promise: Promise<StoreChange>;
  cancel(): void;
}

/** Lazily started, shared watch of one team. */
export class TeamWatch {
  private handle: Promise<WatchHandle> | undefined;
  private readonly listeners = new Set<(change: StoreChange) => void>();

  constructor(
    private readonly store: Store,
    private readonly team: string,
  ) {}

  /** Starts the watch if needed; resolves once it is live (later changes are all reported). */
  async start(): Promise<void> {
    this.handle ??= this.store.watch(this.team, (change) => {
      for (const listener of [...this.listeners]) listener(change);
    });
    try {
      await this.handle;
    } catch (err) {
      this.handle = undefined;
      throw err;
    }
  }

  /** Calls `listener` on every change until the returned function is called. */
  subscribe(listener: (change: StoreChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Arms a one-shot listener for the next change `match` accepts. Arm it *before* re-reading. */
  next(match: (change: StoreChange) => boolean): ArmedHint {
    let off: () => void = () => undefined;
    const promise = new Promise<StoreChange>((resolve) => {
      off = this.subscribe((change) => {
        if (!match(change)) return;
        off();
        resolve(change);
      });
    });
    return { promise, cancel: () => off() };
  }

  /** Stops the watch (if it was started) and drops every listener. */
  async close(): Promise<void> {
    this.listeners.clear();
    const handle = this.handle;
    this.handle = undefined;
    if (handle) await handle.then((h) => h.close(), () => undefined);
  }
}
