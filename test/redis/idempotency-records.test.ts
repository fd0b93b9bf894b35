/**
 * How an append's idempotency record is kept (lua/append-messages.lua, prelude `idem_json`): the
 * reply's rows recorded with cmsgpack and read back as the JSON the client parses, byte for byte
 * what cjson made of them before; and a record written as JSON by an earlier build (a store
 * upgraded while its keys live, 24 h) still replays, to a retry and to readAppended.
 */
import fc from 'fast-check';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TeamConfig } from '../../src/protocol/config.js';
import { makeInboxEntry } from '../../src/protocol/inbox.js';
import { openRedisTeamStore, type RedisTeamStore } from '../../src/store/redis/index.js';
import { teamBase } from '../../src/store/redis/keys.js';
import { preludeSource } from '../../src/store/redis/scripts.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';

let server: RedisServer;
let store: RedisTeamStore;
let raw: ReturnType<typeof createClient>;
beforeAll(async () => {
  server = await startRedis();
  store = await openRedisTeamStore({ kind: 'redis', url: server.url, hostRoot: server.dir });
  raw = createClient({ url: server.url });
  await raw.connect();
  const lead = { agentId: 'team-lead@t', name: 'team-lead' };
  await store.createTeam({ name: 't', createdAt: 1, leadAgentId: lead.agentId, members: [lead] } as TeamConfig);
  await store.addMember('t', { agentId: 'c@t', name: 'c' });
});
afterAll(async () => {
  await raw?.close();
  await store?.close();
  await server?.stop();
});

const entry = (text: string, msgId: string) => makeInboxEntry({ from: 'team-lead', text, timestamp: '2026-01-01T09:00:00.000Z', msgId });

/** The key of an append record of team t, as append-messages.lua names it. */
async function recordKey(key: string): Promise<string> {
  const gen = await raw.hGet(`${teamBase('t')}team`, 'gen');
  return `${teamBase('t')}g${gen}:idem:m:${key}`;
}

describe('append idempotency records', () => {
  it('are read back as the JSON cjson makes of the rows, for any strings', async () => {
    const rows = fc.array(fc.tuple(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }).map((s) => JSON.stringify(s)), fc.constantFrom('0', '1'), fc.constantFrom('0', '1')), { minLength: 1, maxLength: 4 });
    await fc.assert(
      fc.asyncProperty(rows, async (r) => {
        const body = 'local rows = cjson.decode(ARGV[1]); return { idem_json(cmsgpack.pack(rows)), cjson.encode(rows) }';
        const [fromPacked, fromJson] = (await raw.sendCommand(['EVAL', `${preludeSource()}\n${body}`, '0', JSON.stringify(r)])) as string[];
        expect(fromPacked).toBe(fromJson);
        expect(JSON.parse(fromPacked!)).toEqual(r);
      }),
      { numRuns: 200 },
    );
  });

  it('are recorded as MessagePack now, and replay the first reply to a retry and to readAppended', async () => {
    const first = await store.appendMessages('t', [{ to: 'c', entry: entry('one "quoted" / slashed ✓', 'k1-id') }], { idempotencyKey: 'k1' });
    const recorded = await raw.get(await recordKey('k1'));
    expect(recorded).not.toBeNull();
    expect(recorded!.startsWith('[')).toBe(false);
    const again = await store.appendMessages('t', [{ to: 'c', entry: entry('one "quoted" / slashed ✓', 'k1-id') }], { idempotencyKey: 'k1' });
    expect(again.value.replayed).toBe(true);
    expect(again.value.messages).toEqual(first.value.messages);
    expect(await store.readAppended('t', 'k1')).toEqual(first.value.messages);
    expect((await store.readInbox('t', 'c')).filter((e) => e.msg_id === 'k1-id')).toHaveLength(1);
  });

  it('written as JSON by an earlier build still replay, and nothing is appended again', async () => {
    const doc = JSON.stringify(entry('from the old build', 'old-id'));
    await raw.set(await recordKey('old'), JSON.stringify([['c', doc, '1', '1']]), { PX: 60_000 });
    const replay = await store.appendMessages('t', [{ to: 'c', entry: entry('from the old build', 'old-id') }], { idempotencyKey: 'old' });
    expect(replay.value.replayed).toBe(true);
    expect(replay.value.messages).toEqual([{ to: 'c', entry: JSON.parse(doc) }]);
    expect(await store.readAppended('t', 'old')).toEqual([{ to: 'c', entry: JSON.parse(doc) }]);
    expect((await store.readInbox('t', 'c')).filter((e) => e.msg_id === 'old-id')).toHaveLength(0);
  });
});
