/**
 * The Redis backend's entry, loaded by src/store/open.ts with a dynamic `import()` only when a
 * `redis://` or `rediss://` store is selected (so the filesystem default never loads node-redis).
 */
import { FsHostStore } from '../fs/host-store.js';
import type { OpenOptions } from '../open.js';
import type { StoreSelection, Stores } from '../selection.js';
import { RedisConnection, type ConnectionOptions } from './connection.js';
import { RedisTeamStore } from './store.js';
import { assertRedisUrl } from './url.js';

export { RedisTeamStore } from './store.js';
export { redactUrl } from './url.js';

/**
 * Connects to the Redis server of `selection` and returns its team store (the host store of a
 * Redis selection is the filesystem host store at `selection.hostRoot`). Close it when done.
 * @throws INVALID_ARGUMENT (not a Redis URL), STORE_UNAVAILABLE (server unreachable; the URL named without its password)
 */
export async function openRedisTeamStore(selection: Extract<StoreSelection, { kind: 'redis' }>, options: ConnectionOptions = {}): Promise<RedisTeamStore> {
  assertRedisUrl(selection.url);
  const conn = await RedisConnection.open(selection.url, options);
  return new RedisTeamStore(selection, conn);
}

/** Options of {@link openRedisStores}: those of `openStores`, plus connection tuning (tests shorten the waits). */
export interface RedisOpenOptions extends OpenOptions {
  connection?: ConnectionOptions | undefined;
}

/**
 * What `openStores` (src/store/open.ts) calls for a Redis selection: the Redis team store, and this
 * machine's host store — the filesystem host store at `selection.hostRoot` (pid and command
 * records and agent logs never leave the machine). @throws INVALID_ARGUMENT, STORE_UNAVAILABLE
 */
export async function openRedisStores(selection: Extract<StoreSelection, { kind: 'redis' }>, options: RedisOpenOptions = {}): Promise<Stores> {
  const team = await openRedisTeamStore(selection, options.connection);
  const host = new FsHostStore(selection.hostRoot, options.lock);
  return { selection, team, host, close: () => team.close() };
}
