/**
 * Attacks on the bridge's change-following (docs/bridge.md "Following each inbox"): Claude Code
 * writers of both styles (2.1.109 in place, 2.1.332 temp file and rename, both under Claude Code's
 * lock) and every kind of rewrite a delta read must not take for an append — a same-length edit, an
 * entry removed from the middle, the file replaced by a shorter one, an append and a read mark in
 * one write, an archive of the read head — while both machines' bridges run, with Redis writers
 * and readers on the other side. Every message ends up once on each side and read flags converge.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { entryKey } from '../../src/domain/entries.js';
import type { InboxEntry } from '../../src/protocol/inbox.js';
import { startBridge } from '../../src/bridge/bridge.js';
import type { HostStore } from '../../src/store/host-store.js';
import { openFsStores } from '../../src/store/open.js';
import { claudeAppend } from '../helpers/claude-locked.js';
import { until } from '../helpers/runtime.js';
import { inboxFile, TEAM, twoMachines, type TwoMachines } from './setup.js';

interface ProperLockfile {
  lock(file: string, options: Record<string, unknown>): Promise<() => Promise<void>>;
}
const lockfile = createRequire(import.meta.url)('proper-lockfile') as ProperLockfile;
const LOCK = { stale: 10_000, realpath: false, retries: { retries: 1_000, minTimeout: 2, maxTimeout: 25 } };

let t: TwoMachines | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

type Raw = Record<string, unknown>;

/** Rewrites an inbox under Claude Code's lock: in place (2.1.109) or temp file and rename (2.1.332). */
async function rewrite(path: string, style: 'in-place' | 'rename', change: (text: string) => string): Promise<void> {
  const release = await lockfile.lock(path, { ...LOCK, lockfilePath: `${path}.lock` });
  try {
    const next = change(await readFile(path, 'utf8'));
    if (style === 'in-place') await writeFile(path, next);
    else {
      const tmp = `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
      await writeFile(tmp, next);
      await rename(tmp, path);
    }
  } finally {
    await release();
  }
}

const asArray = (change: (v: Raw[]) => Raw[]) => (text: string) => JSON.stringify(change(JSON.parse(text) as Raw[]), null, 2);

function entry(from: string, text: string): Raw {
  return { from, text, timestamp: new Date().toISOString(), color: 'blue', read: false };
}

const count = (entries: readonly InboxEntry[], text: string) => entries.filter((e) => e.text === text).length;

describe('bridge: following inbox changes under attack', () => {
  it('both writer styles and every kind of rewrite while bridging: once on each side, read flags converge', async () => {
    t = await twoMachines();
    await t.a.start();
    await t.b.start();
    const a = t.a.inbox('observer');
    const bPath = t.b.inbox('observer');
    const redis = t.a.remote.team;
    const localA = openFsStores(t.a.root).team;
    const sent: string[] = [];
    const removedOnA = new Set<string>();
    const readOnA = new Set<string>();
    const readOnRedis = new Set<string>();
    const onRedis = async () => redis.readInbox(TEAM, 'observer');
    const synced = async () => {
      await until(async () => {
        const r = await onRedis();
        return sent.every((s) => count(r, s) === 1) && sent.every((s) => count(r, s) >= 1);
      }, 20_000, 'every message on Redis');
    };
    for (let r = 0; r < 24; r++) {
      await claudeAppend(a, entry('team-lead', `a109-${r}`));
      sent.push(`a109-${r}`);
      await rewrite(a, 'rename', asArray((v) => [...v, entry('team-lead', `a332-${r}`)]));
      sent.push(`a332-${r}`);
      await redis.appendMessages(TEAM, [{ to: 'observer', entry: entry('team-lead', `r-${r}`) as unknown as InboxEntry }]);
      sent.push(`r-${r}`);
      if (r % 3 === 2) {
        // Same length: the first unread entry turned read, `false` → `true ` (one byte of padding).
        await synced();
        await rewrite(a, 'in-place', (text) => {
          const at = text.indexOf('"read": false');
          const m = /"text": "([^"]*)",[^{}]*"read": false/.exec(text);
          if (m) readOnA.add(m[1]!);
          return text.slice(0, at) + '"read": true ' + text.slice(at + '"read": false'.length);
        });
      }
      if (r % 4 === 3) {
        // A text edited to another of the same length: a new message on A, the old one gone there.
        await synced();
        await rewrite(a, 'in-place', (text) => text.replace(`"a109-${r - 1}"`, `"e109-${r - 1}"`));
        removedOnA.add(`a109-${r - 1}`);
        sent.push(`e109-${r - 1}`);
      }
      if (r % 5 === 4) {
        // An entry removed from the middle (as 2.1.332 drops one it delivered).
        await synced();
        await rewrite(a, 'rename', asArray((v) => {
          const i = Math.floor(v.length / 2);
          removedOnA.add(String(v[i]!.text));
          return [...v.slice(0, i), ...v.slice(i + 1)];
        }));
      }
      if (r % 7 === 6) {
        // One write appends an entry and marks another read.
        await synced();
        await rewrite(a, 'rename', asArray((v) => {
          const u = v.find((e) => e.read === false);
          if (u) readOnA.add(String(u.text));
          return [...v.map((e) => (e === u ? { ...e, read: true } : e)), entry('team-lead', `mix-${r}`)];
        }));
        sent.push(`mix-${r}`);
      }
      if (r % 4 === 1) {
        const unread = (await onRedis()).filter((e) => !e.read && e.text.startsWith('a'));
        const pick = unread[0];
        if (pick) {
          await redis.markRead(TEAM, 'observer', [entryKey(pick)]);
          readOnRedis.add(pick.text);
        }
      }
      if (r === 10) {
        await synced();
        await localA.archiveInbox(TEAM, 'observer');
        await t.a.bridge!.idle();
      }
      if (r === 15) {
        // The whole file replaced by a shorter one (its last three entries).
        await synced();
        await rewrite(a, 'in-place', asArray((v) => {
          for (const e of v.slice(0, -3)) removedOnA.add(String(e.text));
          return v.slice(-3);
        }));
      }
    }
    await synced();
    await until(async () => {
      const b = await inboxFile(bPath);
      return sent.every((s) => count(b, s) === 1);
    }, 20_000, 'every message on B');
    await t.a.bridge!.idle();
    await t.b.bridge!.idle();
    const onA = await inboxFile(a);
    const r = await onRedis();
    const b = await inboxFile(bPath);
    for (const s of sent) {
      expect([s, count(r, s)]).toEqual([s, 1]);
      expect([s, count(b, s)]).toEqual([s, 1]);
      expect([s, count(onA, s)]).toEqual([s, removedOnA.has(s) || !onA.some((e) => e.text === s) ? count(onA, s) : 1]);
      expect(count(onA, s)).toBeLessThanOrEqual(1);
    }
    // Read flags: what either side read is read on Redis and on B; A's copies agree with Redis.
    await until(async () => {
      const rr = await onRedis();
      const bb = await inboxFile(bPath);
      const aa = await inboxFile(a);
      const readIn = (xs: readonly InboxEntry[], s: string) => xs.find((e) => e.text === s)?.read === true;
      const ok = [...readOnA, ...readOnRedis, ...removedOnA].every((s) => readIn(rr, s) && readIn(bb, s))
        && aa.every((e) => readIn(rr, e.text) === e.read && readIn(bb, e.text) === e.read)
        && rr.every((e) => readIn(bb, e.text) === e.read);
      return ok;
    }, 20_000, 'read flags converge');
  }, 120_000);
});

/**
 * The host store of a bridge whose process dies once `armed`: from then on its saves never reach
 * the disk (they never resolve), exactly as a kill -9 right after a store write and before that
 * step's log line. The bridge is then stopped without saving, and a new one starts on the same root.
 */
function dyingHost(host: HostStore): { host: HostStore; arm(): void } {
  let armed = false;
  const never = new Promise<void>(() => undefined);
  const wrapped = new Proxy(host, {
    get(target, prop, receiver) {
      if (armed && (prop === 'appendBridgeStateLog' || prop === 'writeBridgeState')) return () => never;
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { host: wrapped, arm: () => (armed = true) };
}

describe('bridge: killed between a copy and its saved line', () => {
  it('a message copied to Redis and archived there before the kill is not copied again at restart', async () => {
    t = await twoMachines();
    const local = openFsStores(t.a.root);
    const dying = dyingHost(local.host);
    const first = await startBridge({ team: TEAM, local: local.team, host: dying.host, remote: t.a.remote.team, presenceMs: 500, retryMs: 100 });
    const a = t.a.inbox('observer');
    const redis = t.a.remote.team;
    await claudeAppend(a, entry('team-lead', 'before'));
    await until(async () => (await redis.readInbox(TEAM, 'observer')).some((e) => e.text === 'before'), 10_000, 'first copy');
    await first.idle();
    dying.arm(); // the process dies after its next store write, before that step's log line
    await claudeAppend(a, entry('team-lead', 'x'));
    await until(async () => (await redis.readInbox(TEAM, 'observer')).some((e) => e.text === 'x'), 10_000, 'x copied to Redis');
    void first.stop(); // its next write waits for a save that never lands: it writes nothing more
    // Its reader on the shared side reads it and archives the read head (as a runtime past 64 KiB does).
    const x = (await redis.readInbox(TEAM, 'observer')).filter((e) => e.text === 'x' || e.text === 'before');
    await redis.markRead(TEAM, 'observer', x.map(entryKey));
    await redis.archiveInbox(TEAM, 'observer');
    expect(await redis.readInbox(TEAM, 'observer')).toEqual([]);
    const again = await startBridge({ team: TEAM, local: local.team, host: local.host, remote: redis, presenceMs: 500, retryMs: 100 });
    try {
      await again.idle();
      const after = await redis.readInbox(TEAM, 'observer');
      expect(after.filter((e) => e.text === 'x')).toEqual([]); // read and archived once: not delivered again
      expect((await inboxFile(a)).find((e) => e.text === 'x')?.read).toBe(true);
    } finally {
      await again.stop();
    }
  }, 60_000);

  // docs/bridge.md "Restart": the file keeps no trace of an entry Claude Code 2.1.332 delivered and
  // deleted, but the local journal holds the copy's `message` event (written under the inbox lock
  // right after the copy): the restart takes it as delivered, never copies it again, never loses it.
  it('a message copied into a Claude Code inbox and removed there on delivery (2.1.332) before the kill is not copied again: read on Redis', async () => {
    t = await twoMachines();
    const local = openFsStores(t.a.root);
    const dying = dyingHost(local.host);
    const first = await startBridge({ team: TEAM, local: local.team, host: dying.host, remote: t.a.remote.team, presenceMs: 500, retryMs: 100 });
    const a = t.a.inbox('observer');
    const redis = t.a.remote.team;
    await redis.appendMessages(TEAM, [{ to: 'observer', entry: entry('team-lead', 'before') as unknown as InboxEntry }]);
    await until(async () => (await inboxFile(a)).some((e) => e.text === 'before'), 10_000, 'first copy');
    await first.idle();
    dying.arm();
    await redis.appendMessages(TEAM, [{ to: 'observer', entry: entry('team-lead', 'y') as unknown as InboxEntry }]);
    await until(async () => (await inboxFile(a)).some((e) => e.text === 'y'), 10_000, 'y copied to A');
    void first.stop(); // its next write waits for a save that never lands: it writes nothing more
    // Claude Code 2.1.332 delivers y and removes it from the file.
    await rewrite(a, 'rename', asArray((v) => v.filter((e) => e.text !== 'y')));
    const again = await startBridge({ team: TEAM, local: local.team, host: local.host, remote: redis, presenceMs: 500, retryMs: 100 });
    try {
      await again.idle();
      const copies = (await inboxFile(a)).filter((e) => e.text === 'y').length;
      const onRedis = (await redis.readInbox(TEAM, 'observer')).filter((e) => e.text === 'y');
      expect(onRedis).toHaveLength(1); // the message itself is kept, once
      expect({ copies, read: onRedis[0]!.read }).toEqual({ copies: 0, read: true });
    } finally {
      await again.stop();
    }
  }, 60_000);
});

describe('bridge: a torn or emptied Claude Code inbox', () => {
  it('is never overwritten nor taken as removals; once whole again, both sides converge', async () => {
    t = await twoMachines();
    await t.a.start();
    const a = t.a.inbox('observer');
    const redis = t.a.remote.team;
    for (let i = 0; i < 3; i++) await claudeAppend(a, entry('team-lead', `m-${i}`));
    await until(async () => (await redis.readInbox(TEAM, 'observer')).length === 3, 10_000, 'three on Redis');
    await t.a.bridge!.idle();
    const whole = await readFile(a, 'utf8');
    for (const broken of [whole.slice(0, Math.floor(whole.length * 0.6)), '']) {
      // Claude Code 2.1.109 died mid-way through its in-place write (truncated, then part written).
      await writeFile(a, broken);
      await redis.appendMessages(TEAM, [{ to: 'observer', entry: entry('team-lead', `z-${broken.length}`) as unknown as InboxEntry }]);
      await new Promise((r) => setTimeout(r, 2_500));
      expect(await readFile(a, 'utf8')).toBe(broken);
      // Nothing on Redis was taken as removed (read) on A.
      expect((await redis.readInbox(TEAM, 'observer')).filter((e) => e.read)).toEqual([]);
    }
    // Whole again, with one more message and m-0 read (the write Claude Code finished later).
    const fixed = (JSON.parse(whole) as Raw[]).map((e) => (e.text === 'm-0' ? { ...e, read: true } : e));
    await writeFile(a, JSON.stringify([...fixed, entry('team-lead', 'after')], null, 2));
    await until(async () => {
      const r = await redis.readInbox(TEAM, 'observer');
      const aa = await inboxFile(a);
      const texts = ['m-0', 'm-1', 'm-2', 'after', `z-${Math.floor(whole.length * 0.6)}`, 'z-0'];
      return texts.every((s) => count(r, s) === 1 && count(aa, s) === 1) && r.find((e) => e.text === 'm-0')?.read === true;
    }, 15_000, 'converged after repair');
    const r = await redis.readInbox(TEAM, 'observer');
    expect(r.filter((e) => e.read).map((e) => e.text)).toEqual(['m-0']);
  }, 60_000);
});

describe('bridge: a change during an inbox\'s first read', () => {
  it('is synced at the next step, not left for the presence tick', async () => {
    t = await twoMachines();
    const local = openFsStores(t.a.root);
    const a = t.a.inbox('observer');
    const redis = t.a.remote.team;
    await claudeAppend(a, entry('team-lead', 'm-0'));
    // Claude Code appends while the bridge's first read of the inbox is in flight: after the store
    // read the file, before the bridge keeps the copy (the hint arrives meanwhile).
    let first = true;
    const team = new Proxy(local.team, {
      get(target, prop, receiver) {
        const v = Reflect.get(target, prop, receiver) as unknown;
        if (prop !== 'readInboxChanges' || typeof v !== 'function') return typeof v === 'function' ? (v as (...x: unknown[]) => unknown).bind(target) : v;
        return async (...args: unknown[]) => {
          const got = (await (v as (...x: unknown[]) => Promise<unknown>).apply(target, args)) as unknown;
          if (first && args[1] === 'observer' && args[2] === undefined) {
            first = false;
            await claudeAppend(a, entry('team-lead', 'during'));
            await new Promise((r) => setTimeout(r, 300)); // the watch's hint lands
          }
          return got;
        };
      },
    });
    const bridge = await startBridge({ team: TEAM, local: team, host: local.host, remote: redis, presenceMs: 600_000, retryMs: 100 });
    try {
      expect(first).toBe(false);
      // Another inbox's change makes a step; the presence tick (10 min here) is not what syncs it.
      await redis.appendMessages(TEAM, [{ to: 'team-lead', entry: entry('observer', 'nudge') as unknown as InboxEntry }]);
      await until(async () => (await redis.readInbox(TEAM, 'observer')).some((e) => e.text === 'during'), 10_000, '"during" on Redis');
    } finally {
      await bridge.stop();
    }
  }, 30_000);
});

describe('bridge: Redis restarted from an older snapshot', () => {
  it('a message Redis lost is not taken as read on Redis: it stays unread in the Claude Code inbox', async () => {
    t = await twoMachines();
    await t.a.start();
    const a = t.a.inbox('observer');
    const redis = t.a.remote.team;
    await claudeAppend(a, entry('team-lead', 'm-0'));
    await until(async () => (await redis.readInbox(TEAM, 'observer')).some((e) => e.text === 'm-0'), 10_000, 'm-0 on Redis');
    await t.a.bridge!.idle();
    // A snapshot (RDB) with m-0; then m-1 is synced; then Redis dies and restarts from the snapshot.
    const saved = spawnSync('redis-cli', ['-p', String(t.server.port), 'SAVE'], { encoding: 'utf8' });
    expect(saved.stdout.trim()).toBe('OK');
    await claudeAppend(a, entry('team-lead', 'm-1'));
    await until(async () => (await redis.readInbox(TEAM, 'observer')).some((e) => e.text === 'm-1'), 10_000, 'm-1 on Redis');
    await t.a.bridge!.idle();
    await t.server.kill();
    await t.server.restart();
    await until(async () => (await redis.readInbox(TEAM, 'observer').catch(() => [])).some((e) => e.text === 'm-0'), 10_000, 'Redis back with m-0');
    // The presence tick (500 ms here) has every inbox read again; a few of them pass.
    await new Promise((r) => setTimeout(r, 3_000));
    await t.a.bridge!.idle();
    // Nobody read m-1: Claude Code's teammate must still see it unread.
    expect((await inboxFile(a)).find((e) => e.text === 'm-1')?.read).toBe(false);
    // And Redis gets it again, once.
    expect((await redis.readInbox(TEAM, 'observer')).filter((e) => e.text === 'm-1').map((e) => e.read)).toEqual([false]);
  }, 60_000);
});
