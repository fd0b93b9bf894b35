/**
 * Break test of the group commit (src/store/redis/append-batcher.ts): a combined call whose first
 * try ran but whose reply was lost, and whose retry is then refused before the script can look up
 * its key (the server full: OOM, STORE_FULL). The batcher must not take that refusal for "nothing
 * was written" and run each append again on its own: that would store every entry twice.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from 'redis';
import type { TeamConfig } from '../../src/protocol/config.js';
import { openRedisTeamStore, type RedisTeamStore } from '../../src/store/redis/index.js';
import { startRedis } from '../helpers/redis-server.js';
import { startProxy } from '../helpers/tcp-proxy.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const bare = (from: string, text: string) => ({ from, text, timestamp: new Date().toISOString(), read: false });

describe('a combined call whose reply is lost and whose retry is refused (STORE_FULL)', () => {
  it('stores no entry twice: the callers get the refusal, the appends are not run again one by one', async () => {
    const s = await startRedis();
    cleanups.push(() => s.stop());
    const proxy = await startProxy(s.port);
    cleanups.push(() => proxy.close());
    const store = await openRedisTeamStore({ kind: 'redis', url: `redis://127.0.0.1:${proxy.port}`, hostRoot: '/nonexistent' }, { waitMs: 5_000 });
    cleanups.push(() => store.close());
    const raw = createClient({ url: s.url });
    await raw.connect();
    cleanups.push(async () => void (await raw.close()));
    const lead = { agentId: 'team-lead@full', name: 'team-lead' };
    await store.createTeam({ name: 'full', createdAt: 1, leadAgentId: lead.agentId, members: [lead] } as TeamConfig);
    await store.addMember('full', { agentId: 'bob@full', name: 'bob' });
    // The script loaded first, so that the reply dropped is the combined call's.
    await store.appendMessages('full', [{ to: 'bob', entry: bare('team-lead', 'warm') }]);
    const used = async () => Number(/used_memory:(\d+)/.exec(String(await raw.info('memory')))![1]);
    const filler = 'x'.repeat(10_000);
    for (let i = 0; i < 50; i++) await raw.set(`filler:${i}`, filler);
    // After the first try ran, before the retry: the server is full, every write refused (OOM).
    proxy.dropNextReply(async () => {
      await raw.configSet({ maxmemory: String(Math.floor((await used()) / 2)), 'maxmemory-policy': 'noeviction' });
      // Room again as soon as the retry was refused, before the client hears of it: whatever the
      // client runs next (each append on its own, if it took OOM for "nothing written") succeeds.
      proxy.beforeReply(async (chunk) => {
        if (!chunk.toString().includes('OOM')) return;
        proxy.beforeReply(undefined);
        await raw.configSet('maxmemory', '0');
      });
    });
    const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => store.appendMessages('full', [{ to: 'bob', entry: bare(`w${i}`, `m${i}`) }])));
    expect(proxy.dropped()).toBe(1);
    await raw.configSet('maxmemory', '0');
    const texts = (await store.readInbox('full', 'bob')).map((e) => e.text);
    const twice = texts.filter((t, i) => texts.indexOf(t) !== i);
    expect(twice, `stored twice; inbox: ${texts.join(', ')}`).toEqual([]);
    // The first try ran: every entry is there once, whatever the callers were told.
    expect(texts).toEqual(['warm', 'm0', 'm1', 'm2', 'm3', 'm4', 'm5']);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'STORE_FULL' });
    const events = (await store.readEvents('full')).events.filter((e) => e.kind === 'message');
    expect(events).toHaveLength(7);
  });
});
