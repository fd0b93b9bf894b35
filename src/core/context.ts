/**
 * What every use case takes: the opened {@link Stores} (the CLI opens them with `openStores`, a
 * library caller with `openFsStores(dir)`), and optionally a clock. Core never looks at what kind
 * of store it is, and never opens one itself.
 */
import { isoTime } from '../domain/events.js';
import type { HostStore } from '../store/host-store.js';
import type { StoreRef } from '../store/open.js';
import type { Stores } from '../store/selection.js';
import type { OpContext, TeamStore } from '../store/team-store.js';

export type { StoreRef } from '../store/open.js';
export { isoTime };

/** Options shared by every use case. */
export interface BaseOptions {
  /** The opened {@link Stores} (`openStores(...)`, or `openFsStores(dir)` for a directory). */
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

/** The team store of the options. */
export function teamOf(options: BaseOptions): TeamStore {
  return options.root.team;
}

/** The host store (this machine's records) of the options. */
export function hostOf(options: BaseOptions): HostStore {
  return options.root.host;
}

/** The team store of opened {@link Stores} or a team store itself (for readers that take either). */
export function asTeamStore(store: Stores | TeamStore): TeamStore {
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
