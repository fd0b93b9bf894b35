/**
 * A read_inbox whose take succeeded but whose call then failed (found by the chaos suite, issue 21
 * item 8: kill -9 of redis-server right after a take, 10 of 3 353 acknowledged sends lost to the MCP
 * member). The take handed messages out under a lease; the store then stopped answering before the
 * reply was built (the signed-team guard reads the settings), so the client got an error, not the
 * messages. The client's next read_inbox must hand them out (marked as a redelivery), not
 * acknowledge them as if they had reached it. Both backends; the store is real, only its answer to
 * the read after the take is replaced by STORE_UNAVAILABLE, as a store that went away at that
 * instant gives.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam, spawnMember } from '../../src/index.js';
import { ReaderLease } from '../../src/core/members/reader-claim.js';
import { MailroomError } from '../../src/errors.js';
import { consumeUnread } from '../../src/mcp/inbox.js';
import { McpSession } from '../../src/mcp/session.js';
import { makeInboxEntry } from '../../src/protocol/inbox.js';
import { openStores } from '../../src/store/open.js';
import type { Stores } from '../../src/store/selection.js';
import type { TeamStore } from '../../src/store/team-store.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let redis: RedisServer;
const dirs: TempDir[] = [];
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
  for (const d of dirs) await d.cleanup();
});

async function open(kind: 'fs' | 'redis'): Promise<Stores> {
  const dir = await makeTempDir(`mailroom-handout-fault-${kind}-`);
  dirs.push(dir);
  return kind === 'fs' ? openStores({ kind: 'fs', root: dir.path }) : openStores({ kind: 'redis', url: redis.url, hostRoot: dir.path }, { allowVolatile: true });
}

/** `stores` whose team store fails its next `readSettings` after a `takeUnread`, once, while `armed`. */
function failingAfterTake(stores: Stores): { stores: Stores; arm(): void } {
  let armed = false;
  let took = false;
  const team = new Proxy(stores.team, {
    get(target, prop, receiver) {
      const real = Reflect.get(target, prop, receiver) as unknown;
      if (typeof real !== 'function') return real;
      return (...args: unknown[]) => {
        if (prop === 'takeUnread' && armed) took = true;
        if (prop === 'readSettings' && armed && took) {
          armed = false;
          return Promise.reject(new MailroomError('STORE_UNAVAILABLE', 'the store stopped answering (injected after the take)'));
        }
        return (real as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as TeamStore;
  return { stores: Object.assign(Object.create(Object.getPrototypeOf(stores) as object) as Stores, stores, { team }), arm: () => (armed = true) };
}

describe.each(['fs', 'redis'] as const)('read_inbox that fails after its take (%s)', (kind) => {
  it('hands the messages out again on the next read_inbox, marked redelivered, instead of acknowledging them', async () => {
    const real = await open(kind);
    const team = `fault-${kind}`;
    await createTeam({ root: real, team });
    await spawnMember({ root: real, team, name: 'carol' });
    const ids = ['m-1', 'm-2'];
    await real.team.appendMessages(team, ids.map((id) => ({ to: 'carol', entry: makeInboxEntry({ from: 'team-lead', text: id, timestamp: new Date().toISOString(), msgId: id }) })));
    const faulty = failingAfterTake(real);
    const session = new McpSession(faulty.stores, team, 'carol', () => undefined, await ReaderLease.take(real, team, 'carol', 'mcp'));
    try {
      faulty.arm();
      await expect(consumeUnread(session, 5)).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
      const again = await consumeUnread(session, 5);
      expect(again.messages.map((m) => m.msg_id)).toEqual(ids);
      expect(again.messages.every((m) => m.redelivered === true && m.delivery_count === 2)).toBe(true);
      // Only what the client received is acknowledged, by its next call.
      expect((await real.team.readInbox(team, 'carol')).filter((e) => !e.read).map((e) => e.msg_id)).toEqual(ids);
      expect((await consumeUnread(session, 5)).messages).toEqual([]);
      expect((await real.team.readInbox(team, 'carol')).filter((e) => !e.read)).toEqual([]);
    } finally {
      await session.reader?.release().catch(() => undefined);
      await real.close();
    }
  }, 60_000);
});
