/**
 * What every use case takes: where the store is (a filesystem root, or the {@link Stores} the CLI
 * opened with `openStores`), and optionally a clock. Core never looks at what kind of store it is:
 * a string is handed to src/store/open.ts, which knows it names a filesystem root.
 */
import { isoTime } from '../domain/events.js';
import type { HostStore } from '../store/host-store.js';
import { storesOf, type StoreRef } from '../store/open.js';
import type { Stores } from '../store/selection.js';
import type { OpContext, TeamStore } from '../store/team-store.js';

export type { StoreRef } from '../store/open.js';
export { isoTime };

/** Options shared by every use case. */
export interface BaseOptions {
  /** A filesystem store's root directory, or opened {@link Stores}. */
  root: StoreRef;
  /** Clock in epoch ms (tests inject one); default `Date.now`. */
  now?: () => number;
  /** The surface the call came from (`cli`, `runtime`, `mcp`, …), journalled with a refusal; optional. */
  surface?: string | undefined;
}

/** Options of use cases that act on one team. */
export interface TeamOptions extends BaseOptions {
  /** The team's name (its config `name`). */
  team: string;
}

/** The opened stores of `root` (a directory opens the filesystem store; cheap, no handles). */
export function storeOf(root: StoreRef): Stores {
  return storesOf(root);
}

/** The team store of the options. */
export function teamOf(options: BaseOptions): TeamStore {
  return storesOf(options.root).team;
}

/** The host store (this machine's records) of the options. */
export function hostOf(options: BaseOptions): HostStore {
  return storesOf(options.root).host;
}

/** The team store of a {@link StoreRef} or of a team store itself (for readers that take either). */
export function asTeamStore(store: StoreRef | TeamStore): TeamStore {
  if (typeof store === 'string') return storesOf(store).team;
  return 'team' in store && 'host' in store ? store.team : (store as TeamStore);
}

/** Current time in ms from the options' clock. */
export function nowOf(options: BaseOptions): number {
  return (options.now ?? Date.now)();
}

/** The {@link OpContext} of one store transition: the options' clock and the acting member. */
export function opOf(options: BaseOptions, actor?: string): OpContext {
  return { now: nowOf(options), actor };
}
