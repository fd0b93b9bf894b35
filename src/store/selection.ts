/**
 * Choosing the backend: the one place that turns `--store`, `--root`, `--claude` and the
 * environment into a {@link StoreSelection}, opens it, and hands it on to child processes.
 * Code above src/store/ receives the opened {@link Stores} object and never looks at a path or URL.
 */
import type { HostStore } from './host-store.js';
import type { TeamStore } from './team-store.js';

/** Which backend, and where. */
export type StoreSelection =
  /** Claude Code's layout under `root` (team state and this host's records together). */
  | { kind: 'fs'; root: string }
  /** A Redis server (`redis://` or `rediss://`); this host's records under the local `hostRoot`. */
  | { kind: 'redis'; url: string; hostRoot: string };

/** An opened backend: the shared team store and this machine's host store. */
export interface Stores {
  readonly selection: StoreSelection;
  readonly team: TeamStore;
  readonly host: HostStore;
  /** Closes both (connections, watches). */
  close(): Promise<void>;
}
