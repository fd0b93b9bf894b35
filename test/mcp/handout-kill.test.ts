/**
 * Acknowledged hand-out under kill -9 (issue 21 item 1), on both backends, with the real
 * `mailroom mcp` binary: a message is marked read only once the client acknowledged it (its next
 * read_inbox / wait_for_message, or `ack`), so killing the server at any instant of a read_inbox
 * loses nothing: what the dead server handed out goes to the member's next server again, with the
 * same msg_id, marked `redelivered`.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeInboxEntry } from '../../src/protocol/inbox.js';
import { openStores } from '../../src/store/open.js';
import type { Stores } from '../../src/store/selection.js';
import { runCli } from '../helpers/cli.js';
import { startRawMcp, type RawMcp, type RawReply } from '../helpers/raw-mcp.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { cleanEnv } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

interface Shown {
  msg_id: string;
  redelivered?: true;
  delivery_count?: number;
}

interface Backend {
  name: string;
  /** Global CLI arguments selecting the store. */
  args(): string[];
  stores(): Promise<Stores>;
}

let redis: RedisServer;
let host: TempDir;
const fsRoots: TempDir[] = [];
beforeAll(async () => {
  redis = await startRedis();
  host = await makeTempDir('mailroom-handout-host-');
});
afterAll(async () => {
  await redis?.stop();
  await host?.cleanup();
  for (const d of fsRoots) await d.cleanup();
});

function fsBackend(): Backend {
  let root: TempDir | undefined;
  return {
    name: 'filesystem',
    args: () => ['--root', root!.path],
    async stores() {
      root ??= await makeTempDir('mailroom-handout-');
      fsRoots.push(root);
      return openStores({ kind: 'fs', root: root.path });
    },
  };
}

function redisBackend(): Backend {
  return {
    name: 'redis',
    args: () => ['--store', redis.url, '--root', host.path],
    stores: () => openStores({ kind: 'redis', url: redis.url, hostRoot: host.path }),
  };
}

const messagesOf = (r: RawReply): Shown[] => ((r.result?.structuredContent?.messages as Shown[] | undefined) ?? []);

/** A team `team` with member alice (registered by a first server, closed cleanly) and `n` messages in her inbox. */
async function setUp(b: Backend, team: string, n: number): Promise<{ stores: Stores; sent: string[]; serve: () => Promise<RawMcp> }> {
  const stores = await b.stores();
  const created = await runCli([...b.args(), 'team', 'create', team], cleanEnv());
  expect(created.code, created.stderr).toBe(0);
  const serve = () => startRawMcp([...b.args(), '--team', team, '--as', 'alice'], cleanEnv());
  expect(await (await serve()).close()).toBe(0);
  const sent = Array.from({ length: n }, () => randomUUID());
  await stores.team.appendMessages(
    team,
    sent.map((id, i) => ({ to: 'alice', entry: makeInboxEntry({ from: 'team-lead', text: `message ${i}`, timestamp: new Date().toISOString(), msgId: id }) })),
  );
  return { stores, sent, serve };
}

/** Reads with a fresh server until nothing is left, then closes it (the last read acknowledged the one before). */
async function drain(serve: () => Promise<RawMcp>, seen: Shown[]): Promise<void> {
  const s = await serve();
  for (;;) {
    const r = await s.reply(s.call('read_inbox', { limit: 10 }));
    expect(r.result?.isError, JSON.stringify(r.result)).toBeFalsy();
    seen.push(...messagesOf(r));
    if (messagesOf(r).length === 0 && r.result?.structuredContent?.remaining === 0) break;
  }
  expect(await s.close()).toBe(0);
}

/** Every msg_id seen again after its first sighting came marked as a redelivery. */
function expectMarkedRedeliveries(seen: readonly Shown[]): void {
  const first = new Set<string>();
  for (const m of seen) {
    if (first.has(m.msg_id)) expect(m, `msg_id ${m.msg_id} came twice without being marked a redelivery`).toMatchObject({ redelivered: true });
    first.add(m.msg_id);
  }
}

describe.each([fsBackend(), redisBackend()])('acknowledged hand-out under kill -9: $name', (b) => {
  it('loses none of 60 messages when mailroom mcp is killed at random 0–40 ms into read_inbox, again and again', async () => {
    const { stores, sent, serve } = await setUp(b, `kill-${b.name}`, 60);
    const seen: Shown[] = [];
    for (let round = 0; round < 15; round++) {
      const s = await serve();
      // Some reads complete (each acknowledges the one before); the last is cut short by kill -9.
      const complete = Math.floor(Math.random() * 3);
      for (let i = 0; i < complete; i++) await s.reply(s.call('read_inbox', { limit: 4 }));
      s.call('read_inbox', { limit: 4 });
      await new Promise((r) => setTimeout(r, Math.random() * 40));
      await s.kill9();
      // What the client received, the last reply included if it was written before the kill.
      for (const r of s.replies()) seen.push(...messagesOf(r));
    }
    await drain(serve, seen);
    const delivered = new Set(seen.map((m) => m.msg_id));
    const lost = sent.filter((id) => !delivered.has(id));
    expect(lost, `${lost.length} of ${sent.length} messages were never delivered`).toEqual([]);
    expectMarkedRedeliveries(seen);
    const inbox = await stores.team.readInbox(`kill-${b.name}`, 'alice');
    expect(inbox.filter((e) => !e.read).map((e) => e.msg_id)).toEqual([]);
    await stores.close();
  }, 300_000);

  it('hands what a server killed with kill -9 had handed out to the next server, same msg_ids, marked redelivered; ack marks them read', async () => {
    const team = `takeover-${b.name}`;
    const { stores, sent, serve } = await setUp(b, team, 5);
    const first = await serve();
    const got = messagesOf(await first.reply(first.call('read_inbox')));
    expect(got.map((m) => m.msg_id)).toEqual(sent);
    expect(got.every((m) => m.redelivered === undefined)).toBe(true);
    await first.kill9();
    const second = await serve();
    const again = messagesOf(await second.reply(second.call('read_inbox')));
    expect(again.map((m) => m.msg_id)).toEqual(sent);
    expect(again.every((m) => m.redelivered === true && m.delivery_count === 2)).toBe(true);
    const acked = await second.reply(second.call('ack', { msg_ids: sent.slice(0, 3) }));
    expect(acked.result?.structuredContent).toMatchObject({ acknowledged: 3, pending: 2 });
    const inbox = await stores.team.readInbox(team, 'alice');
    expect(inbox.map((e) => e.read)).toEqual([true, true, true, false, false]);
    const rest = await second.reply(second.call('ack'));
    expect(rest.result?.structuredContent).toMatchObject({ acknowledged: 2, pending: 0 });
    expect((await stores.team.readInbox(team, 'alice')).every((e) => e.read)).toBe(true);
    expect(await second.close()).toBe(0);
    await stores.close();
  }, 120_000);
});
