/**
 * What every use case takes: where the store is, and optionally a clock and a warning sink.
 */
import { FsStore } from '../store/fs-store.js';
import type { Store } from '../store/store.js';

/** Where to find team state: a root directory (filesystem store) or any {@link Store}. */
export type StoreRef = string | Store;

/** Options shared by every use case. */
export interface BaseOptions {
  /** Root directory of the filesystem store, or a ready {@link Store}. */
  root: StoreRef;
  /** Clock in epoch ms (tests inject one); default `Date.now`. */
  now?: () => number;
}

/** Options of use cases that act on one team. */
export interface TeamOptions extends BaseOptions {
  /** The team's name (its config `name`). */
  team: string;
}

/** Returns the store for `root` (a path opens a {@link FsStore}). */
export function storeOf(root: StoreRef): Store {
  return typeof root === 'string' ? new FsStore(root) : root;
}

/** Current time in ms from the options' clock. */
export function nowOf(options: BaseOptions): number {
  return (options.now ?? Date.now)();
}

/** ISO-8601 UTC with milliseconds, the only timestamp shape Claude Code accepts everywhere. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
