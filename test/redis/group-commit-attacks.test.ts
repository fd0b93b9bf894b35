/**
 * Attacks on the Redis store's group commit (src/store/redis/append-batcher.ts) with a real
 * server: a combined call in which one append names an unknown recipient; a combined call whose
 * reply is lost with the connection after the script ran; and the server stalled (SIGSTOP) and
 * killed -9 and restarted with AOF while eight concurrent senders of one process and two other
 * processes append without keys of their own. Every acknowledged append is in the inbox exactly
 * once, nothing is ever stored twice, and each sender's order is kept.
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { TeamConfig } from '../../src/protocol/config.js';
import { makeInboxEntry } from '../../src/protocol/inbox.js';
import { openRedisTeamStore, type RedisTeamStore } from '../../src/store/redis/index.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { startProxy } from '../helpers/tcp-proxy.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function server(options: Parameters<typeof startRedis>[0] = {}): Promise<RedisServer> {
  const s = await startRedis(options);
  cleanups.push(() => s.stop());
  return s;
}

async function open(url: string, options: { waitMs?: number; timeoutMs?: number } = {}): Promise<RedisTeamStore> {
  const store = await openRedisTeamStore({ kind: 'redis', url, hostRoot: '/nonexistent' }, options);
  cleanups.push(() => store.close());
  return store;
}

async function makeTeam(store: RedisTeamStore, name: string, members: string[] = []): Promise<void> {
  const lead = { agentId: `team-lead@${name}`, name: 'team-lead' };
  await store.createTeam({ name, createdAt: 1, leadAgentId: lead.agentId, members: [lead] } as TeamConfig);
  for (const m of members) await store.addMember(name, { agentId: `${m}@${name}`, name: m });
}

/** An entry without a msg_id (as Claude Code writes them): only the store's own key tells a retry from a new append. */
const bare = (from: string, text: string) => ({ from, text, timestamp: new Date().toISOString(), read: false });

describe('a combined call in which one append names an unknown recipient', () => {
  it('fails that append alone (MEMBER_NOT_FOUND) and stores each other one once, in order', async () => {
    const s = await server();
    const store = await open(s.url);
    await makeTeam(store, 'u', ['bob']);
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => store.appendMessages('u', [{ to: i === 3 ? 'nobody' : 'bob', entry: bare('team-lead', `m${i}`) }])),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect((results[3] as PromiseRejectedResult).reason).toMatchObject({ code: 'MEMBER_NOT_FOUND' });
    expect((await store.readInbox('u', 'bob')).map((e) => e.text)).toEqual(['m0', 'm1', 'm2', 'm4', 'm5', 'm6', 'm7']);
    const events = (await store.readEvents('u')).events.filter((e) => e.kind === 'message');
    expect(events).toHaveLength(7);
  });
});

describe('a combined call in which one append carries an entry the store cannot encode', () => {
  const cases: Record<string, () => Record<string, unknown>> = {
    'a from that is not a string': () => ({ ...bare('team-lead', 'x'), from: 5 }),
    'a text that is missing': () => ({ ...bare('team-lead', 'x'), text: undefined }),
    'a BigInt field': () => ({ ...bare('team-lead', 'x'), extra: 1n }),
    'a cycle': () => {
      const e: Record<string, unknown> = bare('team-lead', 'x');
      e.self = e;
      return e;
    },
  };
  for (const [what, bad] of Object.entries(cases)) {
    it(`${what}: that append alone fails (INVALID_ARGUMENT), the others are stored`, async () => {
      const s = await server();
      const store = await open(s.url);
      await makeTeam(store, 'enc', ['bob']);
      const results = await Promise.allSettled(
        [0, 1, 2, 3].map((i) => store.appendMessages('enc', [{ to: 'bob', entry: (i === 2 ? bad() : bare('team-lead', `m${i}`)) as never }])),
      );
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
      expect((results[2] as PromiseRejectedResult).reason).toMatchObject({ code: 'INVALID_ARGUMENT' });
      expect((await store.readInbox('enc', 'bob')).map((e) => e.text)).toEqual(['m0', 'm1', 'm3']);
    });
  }
});

describe('a combined call whose reply is lost after the script ran', () => {
  it('is replayed on the retry: every caller answered, each entry stored and journalled once', async () => {
    const s = await server();
    const proxy = await startProxy(s.port);
    cleanups.push(() => proxy.close());
    const store = await open(`redis://127.0.0.1:${proxy.port}`, { waitMs: 5_000 });
    await makeTeam(store, 'lost', ['bob']);
    proxy.dropNextReply();
    const sent = await Promise.all(Array.from({ length: 8 }, (_, i) => store.appendMessages('lost', [{ to: 'bob', entry: bare(`w${i}`, `bare ${i}`) }])));
    expect(proxy.dropped()).toBe(1);
    expect(sent.map((r) => r.value.messages.map((m) => m.entry.text))).toEqual(Array.from({ length: 8 }, (_, i) => [`bare ${i}`]));
    expect((await store.readInbox('lost', 'bob')).map((e) => e.text)).toEqual(Array.from({ length: 8 }, (_, i) => `bare ${i}`));
    const events = (await store.readEvents('lost')).events.filter((e) => e.kind === 'message');
    expect(events).toHaveLength(8);
  });
});

describe('a combined call whose reply is lost, and one of its recipients removed before the retry', () => {
  it('stores nothing twice: the retry replays the first try (which ran) instead of running each append again', async () => {
    const s = await server();
    const proxy = await startProxy(s.port);
    cleanups.push(() => proxy.close());
    const store = await open(`redis://127.0.0.1:${proxy.port}`, { waitMs: 5_000 });
    const direct = await open(s.url);
    await makeTeam(store, 'gone', ['bob', 'carol']);
    // The script loaded first, so that the reply dropped is the combined call's, not a NOSCRIPT.
    await store.appendMessages('gone', [{ to: 'bob', entry: bare('team-lead', 'warm') }]);
    proxy.dropNextReply(async () => {
      await direct.removeMember('gone', 'carol');
    });
    const results = await Promise.allSettled([
      store.appendMessages('gone', [{ to: 'bob', entry: bare('team-lead', 'to bob') }]),
      store.appendMessages('gone', [{ to: 'carol', entry: bare('team-lead', 'to carol') }]),
    ]);
    expect(proxy.dropped()).toBe(1);
    // The first try ran: bob's message is stored once, whatever each caller was told.
    expect((await direct.readInbox('gone', 'bob')).map((e) => e.text)).toEqual(['warm', 'to bob']);
    // Both appends went through with the first try: each caller is told so (carol's message went
    // to her inbox before she was removed), not MEMBER_NOT_FOUND.
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
  });
});

/** A child process appending `<who>-<n>` (no msg_id, no key of its own) one await at a time; prints `ack <n>` or `fail <n>`. */
const CHILD = `
const { openRedisTeamStore } = await import(process.argv[1]);
const [url, team, who, count] = process.argv.slice(2);
const store = await openRedisTeamStore({ kind: 'redis', url, hostRoot: '/nonexistent' }, { waitMs: 3000, timeoutMs: 1500 });
for (let n = 0; n < Number(count); n++) {
  try {
    await store.appendMessages(team, [{ to: 'team-lead', entry: { from: who, text: who + '-' + n, timestamp: new Date().toISOString(), read: false } }]);
    process.stdout.write('ack ' + n + '\\n');
  } catch (err) {
    process.stdout.write('fail ' + n + ' ' + err.code + '\\n');
  }
}
await store.close();
`;

function childWriter(url: string, team: string, who: string, count: number) {
  const dist = new URL('../../dist/store/redis/index.js', import.meta.url).href;
  const proc = spawn(process.execPath, ['--input-type=module', '-e', CHILD, dist, url, team, who, String(count)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
  cleanups.push(async () => void proc.kill('SIGKILL'));
  const done = new Promise<{ acked: string[]; failed: number; stderr: string }>((resolve) =>
    proc.on('close', () => {
      const lines = out.split('\n');
      resolve({ acked: lines.filter((l) => l.startsWith('ack ')).map((l) => `${who}-${l.slice(4)}`), failed: lines.filter((l) => l.startsWith('fail ')).length, stderr: err });
    }),
  );
  return { proc, done };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the server stalled and restarted under concurrent senders', () => {
  it('keeps every acknowledged append exactly once and each sender in order', async () => {
    const s = await server({ aof: true });
    const store = await open(s.url, { waitMs: 3_000, timeoutMs: 1_500 });
    await makeTeam(store, 'chaos');
    const acked = new Map<string, string[]>();
    let failures = 0;
    let stop = false;
    const sender = async (who: string) => {
      const mine: string[] = [];
      acked.set(who, mine);
      for (let n = 0; !stop && n < 5000; n++) {
        const text = `${who}-${n}`;
        try {
          await store.appendMessages('chaos', [{ to: 'team-lead', entry: bare(who, text) }]);
          mine.push(text);
        } catch (err) {
          expect(err).toMatchObject({ code: 'STORE_UNAVAILABLE' });
          failures++;
        }
      }
    };
    const inProcess = Array.from({ length: 8 }, (_, i) => sender(`p${i}`));
    const children = [childWriter(s.url, 'chaos', 'c0', 100_000), childWriter(s.url, 'chaos', 'c1', 100_000)];
    await sleep(500);
    s.proc().kill('SIGSTOP');
    await sleep(4_000);
    s.proc().kill('SIGCONT');
    await sleep(500);
    await s.restart();
    await sleep(800);
    s.proc().kill('SIGSTOP');
    await sleep(700);
    s.proc().kill('SIGCONT');
    await sleep(500);
    stop = true;
    await Promise.all(inProcess);
    for (const k of children) k.proc.kill('SIGTERM');
    const kids = await Promise.all(children.map((k) => k.done));
    for (const k of kids) acked.set(k.acked[0]?.split('-')[0] ?? 'none', k.acked);

    const texts = (await store.readInbox('chaos', 'team-lead')).map((e) => e.text);
    const counts = new Map<string, number>();
    for (const t of texts) counts.set(t, (counts.get(t) ?? 0) + 1);
    expect([...counts].filter(([, c]) => c > 1)).toEqual([]);
    for (const [who, mine] of acked) {
      const stored = texts.filter((t) => t.startsWith(`${who}-`));
      expect(mine.filter((t) => !counts.has(t)), `${who}: acknowledged, missing`).toEqual([]);
      // Each sender's stored entries in its own sending order (unacknowledged ones may be there too).
      const order = stored.map((t) => Number(t.slice(who.length + 1)));
      expect(order).toEqual([...order].sort((a, b) => a - b));
    }
    expect(failures + kids.reduce((a, k) => a + k.failed, 0)).toBeGreaterThan(0);
    expect([...acked.values()].reduce((a, m) => a + m.length, 0)).toBeGreaterThan(200);
  }, 60_000);
});
