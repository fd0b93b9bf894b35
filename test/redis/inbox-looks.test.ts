/**
 * The inbox looks of the Redis store (src/store/redis/inbox-looks.ts, append-messages.lua `look`),
 * on a real redis-server: what a subscribed reader keeps must never claim more than what its take
 * would hand out after the latest append. A look comes for a send to an inbox with nothing else
 * unread; any later append that makes it stale — a second send while the first is unread, an entry
 * too large to carry, an append without the sender's view stamp (a bridge copy) — drops it; a take
 * drops it; a published line that is not a look (forged garbage) drops it too.
 */
import { createClient } from 'redis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { spawnMember } from '../../src/core/members/spawn.js';
import { sendMessage } from '../../src/core/messages/send.js';
import { createTeam } from '../../src/core/teams/team-lifecycle.js';
import { makeInboxEntry } from '../../src/protocol/inbox.js';
import { openStores } from '../../src/store/open.js';
import { parseLook } from '../../src/store/redis/inbox-looks.js';
import { inboxLookChannel } from '../../src/store/redis/keys.js';
import type { Stores } from '../../src/store/selection.js';
import type { StoreHint, WatchHandle } from '../../src/store/team-store.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let server: RedisServer;
let host: TempDir;
let stores: Stores;
let team: string;
let n = 0;
let handles: WatchHandle[] = [];
let hints: StoreHint[] = [];
beforeAll(async () => {
  server = await startRedis();
  host = await makeTempDir('mailroom-looks-');
  stores = await openStores({ kind: 'redis', url: server.url, hostRoot: host.path });
});
afterAll(async () => {
  for (const h of handles) await h.close();
  await stores?.close();
  await server?.stop();
  await host?.cleanup();
});
beforeEach(async () => {
  team = `looks${++n}`;
  await createTeam({ root: stores, team });
  await spawnMember({ root: stores, team, name: 'alice' });
  hints = [];
  handles.push(await stores.team.watchInboxLooks!(team, 'alice'), await stores.team.watch(team, (h) => hints.push(h)));
});

/** Waits for the team's `inbox alice` hint of the next append (published after alice's look, on the same connection). */
async function appended(send: () => Promise<unknown>): Promise<void> {
  const before = hints.filter((h) => h.kind === 'inbox' && h.member === 'alice').length;
  await send();
  await expect.poll(() => hints.filter((h) => h.kind === 'inbox' && h.member === 'alice').length, { timeout: 10_000 }).toBeGreaterThan(before);
}

const look = () => stores.team.hintedLook!(team, 'alice');

/** Reads alice's unread entries through another process's store: this store keeps its look, and the next send is alone in the inbox. */
async function readElsewhere(): Promise<void> {
  const other = await openStores({ kind: 'redis', url: server.url, hostRoot: host.path });
  try {
    expect((await other.team.takeUnread(team, 'alice', { reader: 'r', acknowledge: true })).value.entries).toHaveLength(1);
  } finally {
    await other.close();
  }
}

describe('inbox looks (Redis)', () => {
  it('a send to an inbox with nothing else unread: the look carries it and the stamp the send was checked under', async () => {
    await appended(() => sendMessage({ root: stores, team, to: 'alice', text: 'ping' }));
    const seen = look();
    expect(seen?.entries.map((e) => [e.text, e.read])).toEqual([['ping', false]]);
    expect(seen?.viewStamp).toBe(await stores.team.viewStamp!(team));
    expect(look()).toBeUndefined(); // handed out once
  });

  it('a second send while the first is unread: no look, and the first one is dropped', async () => {
    await appended(() => sendMessage({ root: stores, team, to: 'alice', text: 'first' }));
    await appended(() => sendMessage({ root: stores, team, to: 'alice', text: 'second' }));
    expect(look()).toBeUndefined();
  });

  it('an entry too large to carry: no look, and an earlier one is dropped', async () => {
    await appended(() => sendMessage({ root: stores, team, to: 'alice', text: 'kept' }));
    await readElsewhere();
    await appended(() => sendMessage({ root: stores, team, to: 'alice', text: `big ${'x'.repeat(70 * 1024)}` }));
    expect(look()).toBeUndefined();
  });

  it('an append without the sender\'s view stamp (a bridge copy) drops the kept look', async () => {
    await appended(() => sendMessage({ root: stores, team, to: 'alice', text: 'first' }));
    await readElsewhere();
    await appended(() => stores.team.appendMessages(team, [{ to: 'alice', entry: makeInboxEntry({ from: 'team-lead', text: 'copied', timestamp: new Date().toISOString(), msgId: 'copy-1' }) }]));
    expect(look()).toBeUndefined();
  });

  it('a take drops the kept look', async () => {
    await appended(() => sendMessage({ root: stores, team, to: 'alice', text: 'ping' }));
    await stores.team.takeUnread(team, 'alice', { reader: 'r', acknowledge: true });
    expect(look()).toBeUndefined();
  });

  it('a published line that is not a look drops the kept one', async () => {
    await appended(() => sendMessage({ root: stores, team, to: 'alice', text: 'ping' }));
    const raw = createClient({ url: server.url });
    await raw.connect();
    try {
      await raw.publish(inboxLookChannel(team, 'alice'), 'stamp\nnot json');
      await appended(() => raw.publish(`mr:{${team}}:hints`, 'inbox alice'));
    } finally {
      await raw.close();
    }
    expect(look()).toBeUndefined();
  });

  it('parseLook refuses what is not a look', () => {
    const entry = JSON.stringify(makeInboxEntry({ from: 'a', text: 't', timestamp: new Date().toISOString(), msgId: 'look-1' }));
    expect(parseLook('')).toBeUndefined();
    expect(parseLook('stamp')).toBeUndefined();
    expect(parseLook(`\n${entry}`)).toBeUndefined();
    expect(parseLook('stamp\n[1,2]')).toBeUndefined();
    expect(parseLook('stamp\n{"from":1,"text":"t"}')).toBeUndefined();
    expect(parseLook(`stamp\n${Array.from({ length: 17 }, () => entry).join('\n')}`)).toBeUndefined();
    expect(parseLook(`stamp\n${entry}`)?.entries).toHaveLength(1);
  });
});
