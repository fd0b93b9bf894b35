/**
 * The bridge as real processes under attack (docs/bridge.md "Restart", "Redis unreachable"): Claude
 * Code writers of both styles on machine B and mailroom writers on Redis append while B's
 * `mailroom bridge` is killed (kill -9) and restarted, stopped (SIGSTOP) and continued, while
 * Redis is stopped and continued, and killed and restarted from its AOF; two bridges started at
 * once on one root are one bridge. At the end every message is once on each side, read flags agree.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { appendFile, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { entryKey } from '../../src/domain/entries.js';
import type { InboxEntry } from '../../src/protocol/inbox.js';
import { openFsStores } from '../../src/store/open.js';
import { BIN, runCli } from '../helpers/cli.js';
import { claudeAppend, claudeMarkRead } from '../helpers/claude-locked.js';
import { until } from '../helpers/runtime.js';
import { cleanEnv } from '../helpers/store-files.js';
import { inboxFile, TEAM, twoMachines, type TwoMachines } from './setup.js';

interface ProperLockfile {
  lock(file: string, options: Record<string, unknown>): Promise<() => Promise<void>>;
}
const lockfile = createRequire(import.meta.url)('proper-lockfile') as ProperLockfile;
const LOCK = { stale: 10_000, realpath: false, retries: { retries: 1_000, minTimeout: 2, maxTimeout: 25 } };

let t: TwoMachines | undefined;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await t?.close();
  t = undefined;
});

/** Starts `mailroom bridge` for `root`: resolves with the child once it printed `started`, or with its exit code and stderr. */
function cliBridge(root: string, url: string): Promise<{ child: ChildProcess; code?: number | null; stderr: string }> {
  const child = spawn(process.execPath, [BIN, 'bridge', '--root', root, '--team', TEAM, '--json'], { env: cleanEnv({ MAILROOM_STORE: url }), stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if ((JSON.parse(line) as { kind: string }).kind === 'started') resolve({ child, stderr });
    });
    child.once('exit', (code) => resolve({ child, code, stderr }));
  });
}

async function kill9(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

/** Appends as Claude Code 2.1.332: under the inbox lock, a temp file renamed over the inbox. */
async function append332(path: string, e: Record<string, unknown>): Promise<void> {
  const release = await lockfile.lock(path, { ...LOCK, lockfilePath: `${path}.lock` });
  try {
    const v = JSON.parse(await readFile(path, 'utf8')) as unknown[];
    const tmp = `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
    await writeFile(tmp, JSON.stringify([...v, e], null, 2));
    await rename(tmp, path);
  } finally {
    await release();
  }
}

function entry(from: string, text: string): Record<string, unknown> {
  return { from, text, timestamp: new Date().toISOString(), color: 'blue', read: false };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const count = (entries: readonly InboxEntry[], text: string) => entries.filter((e) => e.text === text).length;

describe('bridge processes under attack', () => {
  it('kill -9, SIGSTOP/SIGCONT, Redis stopped and restarted from its AOF while both sides write: once on each side', async () => {
    t = await twoMachines({ aof: true, seedA: true });
    await t.a.start();
    let b = (await cliBridge(t.b.root, t.server.url)).child;
    await until(async () => (await inboxFile(join(t!.b.root, 'teams', TEAM, 'config.json'))) !== undefined, 10_000, 'B team');
    const redis = t.a.remote.team;
    const bInbox = t.b.inbox('observer');
    // B's inbox exists before the 2.1.332 writer renames over it.
    await claudeAppend(bInbox, entry('team-lead', 'b-seed'));
    const sent = ['b-seed'];
    const N = 60;
    const writers = (async () => {
      for (let i = 0; i < N; i++) {
        await claudeAppend(bInbox, entry('team-lead', `b109-${i}`));
        sent.push(`b109-${i}`);
        await append332(bInbox, entry('team-lead', `b332-${i}`));
        sent.push(`b332-${i}`);
        for (;;) {
          try {
            await redis.appendMessages(TEAM, [{ to: 'observer', entry: entry('team-lead', `r-${i}`) as unknown as InboxEntry }]);
            break;
          } catch {
            await pause(100); // Redis stopped or restarting: the writer retries, as a runtime does
          }
        }
        sent.push(`r-${i}`);
        await pause(15);
      }
    })();
    for (let k = 0; k < 6; k++) {
      await pause(120 + k * 37);
      await kill9(b);
      b = (await cliBridge(t.b.root, t.server.url)).child;
      await pause(90);
      b.kill('SIGSTOP');
      await pause(300);
      b.kill('SIGCONT');
      if (k === 2) {
        t.server.proc().kill('SIGSTOP');
        await pause(1_500);
        t.server.proc().kill('SIGCONT');
      }
      if (k === 4) {
        await t.server.kill();
        await pause(300);
        await t.server.restart();
      }
    }
    await writers;
    await until(async () => {
      const r = await redis.readInbox(TEAM, 'observer');
      const bb = await inboxFile(bInbox);
      const aa = await inboxFile(t!.a.inbox('observer'));
      return sent.every((s) => count(r, s) >= 1 && count(bb, s) >= 1 && count(aa, s) >= 1);
    }, 60_000, 'every message everywhere');
    await pause(1_000);
    const r = await redis.readInbox(TEAM, 'observer');
    const bb = await inboxFile(bInbox);
    const aa = await inboxFile(t.a.inbox('observer'));
    const dup = (xs: readonly InboxEntry[]) => sent.filter((s) => count(xs, s) !== 1);
    expect({ redis: dup(r), b: dup(bb), a: dup(aa), total: [r.length, bb.length, aa.length] }).toEqual({ redis: [], b: [], a: [], total: [sent.length, sent.length, sent.length] });
    // Read flags: marked on Redis and in B's file, they converge on all three.
    await redis.markRead(TEAM, 'observer', r.filter((e) => e.text.startsWith('b1')).map(entryKey));
    const release = await lockfile.lock(bInbox, { ...LOCK, lockfilePath: `${bInbox}.lock` });
    try {
      const v = JSON.parse(await readFile(bInbox, 'utf8')) as Array<Record<string, unknown>>;
      await writeFile(bInbox, JSON.stringify(v.map((e) => (String(e.text).startsWith('r-') ? { ...e, read: true } : e)), null, 2));
    } finally {
      await release();
    }
    await until(async () => {
      const want = (e: InboxEntry) => e.text.startsWith('b1') || e.text.startsWith('r-');
      const all = [...(await redis.readInbox(TEAM, 'observer')), ...(await inboxFile(bInbox)), ...(await inboxFile(t!.a.inbox('observer')))];
      return all.every((e) => e.read === want(e));
    }, 20_000, 'read flags converge');
    await kill9(b);
  }, 180_000);

  it('two bridges started at once on one root: one runs, the other is refused (BRIDGE_RUNNING, exit 4)', async () => {
    t = await twoMachines();
    for (let k = 0; k < 4; k++) {
      const got = await Promise.all([cliBridge(t.b.root, t.server.url), cliBridge(t.b.root, t.server.url)]);
      const refused = got.filter((g) => g.code !== undefined);
      const running = got.filter((g) => g.code === undefined);
      expect([running.length, refused.map((g) => g.code)]).toEqual([1, [4]]);
      expect(refused[0]!.stderr).toContain('BRIDGE_RUNNING');
      await kill9(running[0]!.child);
    }
  }, 60_000);

  it('a torn last line in the state log (kill -9 mid-append) loses nothing and copies nothing twice', async () => {
    t = await twoMachines();
    await t.a.start(); // creates the team in Redis; B's bridge creates it on B
    let b = (await cliBridge(t.b.root, t.server.url)).child;
    const bInbox = t.b.inbox('observer');
    const redis = t.a.remote.team;
    for (let i = 0; i < 5; i++) await claudeAppend(bInbox, entry('team-lead', `m-${i}`));
    await until(async () => (await redis.readInbox(TEAM, 'observer')).length === 5, 10_000, 'five on Redis');
    await kill9(b);
    const log = join(t.b.root, 'mailroom', 'bridge', `${TEAM}.log.ndjson`);
    await appendFile(log, '{"v":1,"synced":[{"member":"observer","add":["abc');
    b = (await cliBridge(t.b.root, t.server.url)).child;
    for (let i = 5; i < 8; i++) await claudeAppend(bInbox, entry('team-lead', `m-${i}`));
    await until(async () => (await redis.readInbox(TEAM, 'observer')).length >= 8, 10_000, 'eight on Redis');
    await pause(500);
    await kill9(b);
    b = (await cliBridge(t.b.root, t.server.url)).child;
    await redis.appendMessages(TEAM, [{ to: 'observer', entry: entry('team-lead', 'last') as unknown as InboxEntry }]);
    await until(async () => count(await inboxFile(bInbox), 'last') === 1, 10_000, 'last on B');
    await pause(500);
    const texts = (await redis.readInbox(TEAM, 'observer')).map((e) => e.text).sort();
    expect(texts).toEqual([...Array.from({ length: 8 }, (_, i) => `m-${i}`), 'last'].sort());
    expect((await inboxFile(bInbox)).map((e) => e.text).sort()).toEqual(texts);
    await kill9(b);
  }, 60_000);
});

describe('bridge stopped while it holds a Claude Code inbox lock', () => {
  it('SIGSTOP mid-write past the lock\'s stale time, Claude Code takes the lock and appends, SIGCONT: nothing lost, nothing twice', async () => {
    t = await twoMachines();
    await t.a.start();
    const b = (await cliBridge(t.b.root, t.server.url)).child;
    const bInbox = t.b.inbox('observer');
    const redis = t.a.remote.team;
    await claudeAppend(bInbox, entry('team-lead', 'seed'));
    const sent = ['seed'];
    // A stream of messages into B's inbox: the bridge writes the file under its lock, again and again.
    let stop = false;
    const flood = (async () => {
      for (let i = 0; !stop && i < 2_000; i++) {
        await redis.appendMessages(TEAM, [{ to: 'observer', entry: entry('team-lead', `r-${i}`) as unknown as InboxEntry }]);
        sent.push(`r-${i}`);
      }
    })();
    const lockDir = `${bInbox}.lock`;
    const { existsSync } = await import('node:fs');
    let caught = false;
    const deadline = Date.now() + 15_000;
    while (!caught && Date.now() < deadline) {
      if (existsSync(lockDir)) {
        b.kill('SIGSTOP');
        caught = existsSync(lockDir);
        if (!caught) b.kill('SIGCONT');
      } else await new Promise((r) => setImmediate(r));
    }
    stop = true;
    await flood;
    expect(caught).toBe(true); // stopped while holding the inbox lock
    await pause(11_000); // past the lock's stale time (10 s): Claude Code takes it over
    await claudeAppend(bInbox, entry('team-lead', 'claude-while-stopped'));
    sent.push('claude-while-stopped');
    b.kill('SIGCONT');
    await until(async () => {
      const bb = await inboxFile(bInbox);
      const r = await redis.readInbox(TEAM, 'observer');
      return sent.every((s) => count(bb, s) >= 1 && count(r, s) >= 1);
    }, 30_000, 'everything on B and Redis');
    await pause(500);
    const bb = await inboxFile(bInbox);
    const r = await redis.readInbox(TEAM, 'observer');
    expect({ b: sent.filter((s) => count(bb, s) !== 1), redis: sent.filter((s) => count(r, s) !== 1) }).toEqual({ b: [], redis: [] });
    await kill9(b);
  }, 90_000);
});

describe('mailroom inbox --archive while the bridge runs', () => {
  it('the read head archived on B and on Redis while Claude Code appends and marks read: once on each side, read flags converge', async () => {
    t = await twoMachines();
    await t.a.start();
    const b = (await cliBridge(t.b.root, t.server.url)).child;
    const bInbox = t.b.inbox('observer');
    const redis = t.a.remote.team;
    const sent: string[] = [];
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 10; i++) {
        await claudeAppend(bInbox, entry('team-lead', `b-${round}-${i}`));
        await redis.appendMessages(TEAM, [{ to: 'observer', entry: entry('team-lead', `r-${round}-${i}`) as unknown as InboxEntry }]);
        sent.push(`b-${round}-${i}`, `r-${round}-${i}`);
      }
      // Claude Code reads half of them (read flags in place), then the read head is archived on B
      // by the CLI and on Redis through the store, while more messages arrive.
      await claudeMarkRead(bInbox, (e) => String(e.text).endsWith('-0') || String(e.text).endsWith('-1') || String(e.text).startsWith(`b-${round - 1}`));
      const more = claudeAppend(bInbox, entry('team-lead', `late-${round}`));
      sent.push(`late-${round}`);
      const run = await runCli(['--root', t.b.root, '--team', TEAM, 'inbox', 'observer', '--archive'], cleanEnv({ MAILROOM_STORE: '' }));
      expect(run.code, run.stderr).toBe(0);
      if (round % 2 === 1) await redis.archiveInbox(TEAM, 'observer');
      await more;
    }
    // Everything is everywhere once, live or archived.
    const all = async (side: 'b' | 'redis') => {
      const store = side === 'b' ? openFsStores(t!.b.root).team : redis;
      const [live, hist] = await Promise.all([store.readInbox(TEAM, 'observer'), store.readInboxHistory(TEAM, 'observer')]);
      return { live, archived: hist.archived };
    };
    await until(async () => {
      const [bb, rr] = [await all('b'), await all('redis')];
      return sent.every((s) => count([...bb.live, ...bb.archived], s) >= 1 && count([...rr.live, ...rr.archived], s) >= 1);
    }, 30_000, 'everything on both sides');
    await pause(1_000);
    const [bb, rr] = [await all('b'), await all('redis')];
    expect([bb.archived.length > 0, rr.archived.length > 0]).toEqual([true, true]); // the archives did move entries
    const twice = (x: { live: InboxEntry[]; archived: InboxEntry[] }) => sent.filter((s) => count(x.live, s) + count(x.archived, s) !== 1 && !(count(x.live, s) === 1 && count(x.archived, s) === 1));
    expect({ b: twice(bb), redis: twice(rr), liveTwice: sent.filter((s) => count(bb.live, s) > 1 || count(rr.live, s) > 1) }).toEqual({ b: [], redis: [], liveTwice: [] });
    // An entry archived on one side (read) is read on the other; live entries agree.
    const readIn = (x: { live: InboxEntry[]; archived: InboxEntry[] }, s: string) => x.archived.some((e) => e.text === s) || x.live.find((e) => e.text === s)?.read === true;
    await until(async () => {
      const [b2, r2] = [await all('b'), await all('redis')];
      return sent.every((s) => readIn(b2, s) === readIn(r2, s));
    }, 20_000, 'read flags converge');
    await kill9(b);
  }, 120_000);
});
