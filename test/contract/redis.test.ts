/**
 * The team-store contract suite (team-store.contract.ts) on the Redis backend, unchanged, against
 * a real redis-server started for this file (and stopped after it). Each test gets an emptied
 * server; child processes open the same store from its selection.
 */
import { afterAll, beforeAll } from 'vitest';
import { createClient } from 'redis';
import { openStores } from '../../src/store/open.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { teamStoreContract } from './team-store.contract.js';
import { handOutContract } from './handout.contract.js';
import { fencingContract } from './fencing.contract.js';
import { livenessClockContract } from './liveness-clock.contract.js';
import { pathLeaseContract } from './path-leases.contract.js';
import { batchedAppendContract } from './batched-appends.contract.js';
import { inboxChangesContract } from './inbox-changes.contract.js';
import { reopenDepartedContract } from './reopen-departed.contract.js';

let server: RedisServer;
beforeAll(async () => {
  server = await startRedis();
});
afterAll(async () => {
  await server?.stop();
});

async function flush(url: string): Promise<void> {
  const client = createClient({ url });
  await client.connect();
  await client.flushAll();
  await client.close();
}

const backend = {
  open: async () => {
    await flush(server.url);
    return (await openStores({ kind: 'redis', url: server.url, hostRoot: server.dir })).team;
  },
};

teamStoreContract('redis', backend);
fencingContract('redis', backend);
livenessClockContract('redis', backend);
pathLeaseContract('redis', backend);
handOutContract('redis', backend);
batchedAppendContract('redis', backend);
inboxChangesContract('redis', backend);
reopenDepartedContract('redis', backend);
