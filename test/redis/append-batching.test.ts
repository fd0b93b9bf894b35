/**
 * Appends of one process that share one append-messages call (src/store/redis/append-batcher.ts):
 * the events of the combined call are split back so that each is returned by exactly one caller —
 * the first whose message stored it — and the server saw fewer script calls than appends.
 */
import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeInboxEntry } from '../../src/protocol/inbox.js';
import { openRedisTeamStore, type RedisTeamStore } from '../../src/store/redis/index.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';

let server: RedisServer;
let store: RedisTeamStore;
beforeAll(async () => {
  server = await startRedis();
  store = await openRedisTeamStore({ kind: 'redis', url: server.url, hostRoot: server.dir });
  await store.createTeam({ name: 'b', createdAt: Date.now(), leadAgentId: 'team-lead@b', members: [{ agentId: 'team-lead@b', name: 'team-lead' }] } as never);
  await store.addMember('b', { agentId: 'alice@b', name: 'alice' } as never);
});
afterAll(async () => {
  await store?.close();
  await server?.stop();
});

const entry = (text: string, msgId = randomUUID()) => makeInboxEntry({ from: 'team-lead', text, timestamp: new Date().toISOString(), msgId });

async function evalshaCalls(): Promise<number> {
  const raw = createClient({ url: server.url });
  await raw.connect();
  const stats = await raw.info('commandstats');
  await raw.close();
  return Number(/cmdstat_evalsha:calls=(\d+)/.exec(stats)?.[1] ?? 0);
}

it('returns the event of a msg_id appended by several concurrent callers to exactly one of them', async () => {
  const id = randomUUID();
  const one = entry('dup', id);
  const calls = await Promise.all(Array.from({ length: 6 }, (_, i) => store.appendMessages('b', i % 2 ? [{ to: 'alice', entry: { ...one } }] : [{ to: 'alice', entry: { ...one } }, { to: 'alice', entry: entry(`own-${i}`) }])));
  const events = calls.flatMap((c) => c.events);
  expect(events.filter((e) => e.kind === 'message' && e.entry.msg_id === id)).toHaveLength(1);
  expect(calls[0]!.events.map((e) => (e.kind === 'message' ? e.entry.text : e.kind))).toEqual(['dup', 'own-0']);
  calls.forEach((c, i) => {
    expect(c.value.messages.every((m) => m.entry.msg_id === id || m.entry.text === `own-${i}`)).toBe(true);
    if (i > 0) expect(c.events.map((e) => (e.kind === 'message' ? e.entry.text : e.kind))).toEqual(i % 2 ? [] : [`own-${i}`]);
  });
});

it('sends concurrent appends of one tick in fewer script calls than appends', async () => {
  const before = await evalshaCalls();
  await Promise.all(Array.from({ length: 20 }, (_, i) => store.appendMessages('b', [{ to: 'alice', entry: entry(`c${i}`) }])));
  const calls = (await evalshaCalls()) - before;
  expect(calls).toBeLessThan(20);
});

it('gathers appends that arrive while a call is in flight into the next call (group commit), in order', async () => {
  const raw = createClient({ url: server.url });
  await raw.connect();
  const before = await evalshaCalls();
  // The server holds the first call for 300 ms: the next appends, each in a later tick, arrive while it is in flight.
  await raw.sendCommand(['CLIENT', 'PAUSE', '300', 'ALL']);
  await raw.close();
  const texts = ['g0', 'g1', 'g2', 'g3'];
  const calls: Promise<unknown>[] = [];
  for (const text of texts) {
    calls.push(store.appendMessages('b', [{ to: 'alice', entry: entry(text) }]));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const done = (await Promise.all(calls)) as Awaited<ReturnType<typeof store.appendMessages>>[];
  expect((await evalshaCalls()) - before).toBe(2);
  expect(done.map((d) => d.value.messages.map((m) => m.entry.text))).toEqual(texts.map((t) => [t]));
  expect(done.map((d) => d.events.map((e) => (e.kind === 'message' ? e.entry.text : e.kind)))).toEqual(texts.map((t) => [t]));
  expect((await store.readInbox('b', 'alice')).map((e) => e.text).filter((t) => t.startsWith('g'))).toEqual(texts);
});
