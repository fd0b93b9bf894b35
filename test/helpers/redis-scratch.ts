/**
 * Per-test resources of the Redis fault tests: cleanups run in reverse after each test, a store
 * opened on a test server (closed with them), and a snapshot of a server's data (SAVE).
 */
import { createClient } from 'redis';
import { afterEach } from 'vitest';
import { openRedisTeamStore, type RedisTeamStore } from '../../src/store/redis/index.js';
import type { RedisServer } from './redis-server.js';

/** Registers an `afterEach` running the returned `cleanups` newest first; `open` adds its store's close to them. */
export function scratchRedis(): { cleanups: Array<() => Promise<void>>; open: (server: RedisServer) => Promise<RedisTeamStore> } {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  const open = async (server: RedisServer): Promise<RedisTeamStore> => {
    const store = await openRedisTeamStore({ kind: 'redis', url: server.url, hostRoot: server.dir });
    cleanups.push(() => store.close());
    return store;
  };
  return { cleanups, open };
}

/** `SAVE` on `server`: its data written to the snapshot (RDB) it restarts from without the AOF. */
export async function saveSnapshot(server: RedisServer): Promise<void> {
  const raw = createClient({ url: server.url });
  await raw.connect();
  await raw.sendCommand(['SAVE']);
  await raw.close();
}
