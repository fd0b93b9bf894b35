/**
 * `agent-mailroom/internals`: the filesystem backend's pieces, for tools and benchmarks that work on
 * a store's files directly (its layout and path rules, its lock, its classes). Not the library API:
 * use cases take {@link Stores} from `openStores`/`openFsStores` (the package entry), and these may
 * change in any release.
 */
export { FsTeamStore } from './store/fs/team-store.js';
export { FsHostStore, localHostId } from './store/fs/host-store.js';
export { FsStores } from './store/fs/stores.js';
export { Layout, resolveRoot } from './store/fs/paths.js';
export { teamDirName, pathPart, taskListId, TOMBSTONE_PATTERN, tombstoneOf } from './store/fs/names.js';
export { STALE_MS, DEFAULT_WAIT_MS, acquireLock, withLock, type HeldLock, type LockOptions } from './store/fs/lock.js';
