// `mailroom bridge` (issue 12): two Claude Code roots A and B, one redis-server (loopback, no
// persistence), one `mailroom bridge` CLI process per root. N messages each way at once — A's lead
// to `far`, a member working on B; B's copy of `far` to A's lead — each
// appended the way Claude Code 2.1.109 does (proper-lockfile lock, read, push, write back), paced
// at one per 5 ms per direction. Latency: from the append's write until the message is seen in the
// other root's inbox file (fs.watch on that inbox, file re-read per event). Also counted: messages
// lost (never arrived) and duplicated (arrived more than once) on every copy. Baseline: the same
// append seen in the same root's file (what detecting a local write costs, the floor of any sync).
import { spawn } from 'node:child_process';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { watch } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import lockfile from 'proper-lockfile';
import { quantile } from './lib/stats.mjs';
import { startRedis } from './lib/redis-server.mjs';

// BENCH_AB_DIST=<file URL of another build's dist/>: run that build's bridges instead (an A/B run
// alternates this build and that one; rows say which). A build without the bridge's archiver runs
// only `<h>u` histories meaningfully: its rows are labelled by what its bridges did.
const AB = process.env.BENCH_AB_DIST;
const BIN = fileURLToPath(new URL('../bin/mailroom.js', AB ?? import.meta.url));
const FIXTURE = fileURLToPath(new URL('../fixtures/claude-code-2.1.109/2-teammate-spawned/teams', import.meta.url));
const TEAM = 'compat';
const LOCK = { stale: 10_000, realpath: false, retries: { retries: 1000, minTimeout: 2, maxTimeout: 25 } };

async function claudeAppend(path, entry) {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, '[]', { flag: 'wx' }).catch(() => undefined);
  const release = await lockfile.lock(path, { ...LOCK, lockfilePath: `${path}.lock` });
  try {
    const value = JSON.parse(await readFile(path, 'utf8'));
    value.push(entry);
    await writeFile(path, JSON.stringify(value, null, 2));
  } finally {
    await release();
  }
}

async function readEntries(path) {
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return undefined; // missing, or caught mid-write (2.1.109 writes in place): the next event re-reads
  }
}

/** Watches an inbox file; records when each text is first seen, and the last full read. */
function observe(path, seen) {
  let busy = false;
  let again = false;
  let last = [];
  const read = async () => {
    if (busy) return void (again = true);
    busy = true;
    do {
      again = false;
      const entries = await readEntries(path);
      if (!entries) continue;
      last = entries;
      const now = performance.now();
      for (const e of entries) if (!seen.has(e.text)) seen.set(e.text, now);
    } while (again);
    busy = false;
  };
  const w = watch(dirname(path), () => void read());
  return { close: () => w.close(), last: () => last, read };
}

/** Starts `mailroom bridge` on `root`; `archived` collects the members whose inbox its archiver moved. */
async function bridge(root, url, { archive, archived }) {
  const env = { ...process.env, MAILROOM_STORE: url, MAILROOM_ROOT: '', CLAUDE_CONFIG_DIR: '', ...(archive ? {} : { MAILROOM_BRIDGE_ARCHIVE: '0' }) };
  const child = spawn(process.execPath, [BIN, 'bridge', '--root', root, '--team', TEAM, '--json'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (l) => {
      const s = JSON.parse(l);
      if (s.kind === 'started') resolve();
      if (s.kind === 'archived') archived.add(s.member);
    });
    child.once('exit', (c) => reject(new Error(`bridge exited ${c}`)));
  });
  return child;
}

const inbox = (root, member) => join(root, 'teams', TEAM, 'inboxes', `${member}.json`);

/**
 * The member A's lead writes to: one that works on machine B (a Claude Code pane teammate or a
 * mailroom agent there), which A's config lists as a member Claude Code runs no part of
 * (`tmuxPaneId: ""`, no `backendType`, as the bridge adds remote members). A's in-process teammate
 * `observer` is not the path: its messages are read on A, and Claude Code's in-process inbox is
 * never archived (2.1.109 marks it by array index).
 */
const FAR = 'far';
async function addFarMember(root) {
  const path = join(root, 'teams', TEAM, 'config.json');
  const config = JSON.parse(await readFile(path, 'utf8'));
  config.members.push({ agentId: `${FAR}@${TEAM}`, name: FAR, agentType: 'general-purpose', joinedAt: config.createdAt + 1000, tmuxPaneId: '', cwd: '/home/dev/b/work', subscriptions: [] });
  await writeFile(path, JSON.stringify(config, null, 2));
}

export default async function bridgeBench(ctx) {
  // BENCH_BRIDGE_HISTORY=<h>[,<h>…] (default 0,1000,1000u): both measured inboxes start with h read
  // messages (~300-byte texts), synced to B before the first send, so the cost of a step against a
  // long history shows. As a user runs it, each bridge's archiver moves that history out of the
  // Claude Code inboxes it writes into right after its start (docs/bridge.md "Archiving"); the run
  // waits for those passes, and its rows say "archived by the bridge". `<h>u` runs the bridges with
  // their archiver off (MAILROOM_BRIDGE_ARCHIVE=0): the cost before a pass has run, and of an inbox
  // that is never archived (a Claude Code in-process teammate's). Issue 24's goal row is the
  // 1 000-history A→B p50 archived by the bridge: ≤ 30 ms, flat in the history.
  const runs = (process.env.BENCH_BRIDGE_HISTORY ?? '0,1000,1000u').split(',').map((h) => ({ history: Number.parseInt(h, 10), archive: !h.endsWith('u') }));
  const rows = [];
  for (const run of runs) rows.push(...(await oneRun(ctx, run)));
  return rows;
}

async function oneRun(ctx, { history, archive }) {
  // BENCH_BRIDGE_PACE_MS=<ms> (default 5): the pause after each append per direction. A long pause
  // measures one message through idle bridges; the default measures a burst, where steps queue.
  const pace = Number(process.env.BENCH_BRIDGE_PACE_MS ?? 5);
  // BENCH_BRIDGE_N=<n>: messages each way (default 250 with --quick, else 1 000).
  const n = Number(process.env.BENCH_BRIDGE_N ?? (ctx.quick ? 250 : 1000));
  const server = await startRedis();
  const a = await ctx.tempRoot();
  const b = await ctx.tempRoot();
  await cp(FIXTURE, join(a, 'teams'), { recursive: true });
  await addFarMember(a);
  if (history > 0) {
    const t = Date.now() - 3_600_000;
    const old = (from, tag) => Array.from({ length: history }, (_, i) => ({ from, text: `history-${tag}-${i} ${'x'.repeat(300)}`, timestamp: new Date(t + i).toISOString(), color: 'blue', read: true }));
    await mkdir(join(a, 'teams', TEAM, 'inboxes'), { recursive: true });
    await writeFile(inbox(a, FAR), JSON.stringify(old('team-lead', 'ab'), null, 2));
    await writeFile(inbox(a, 'team-lead'), JSON.stringify(old(FAR, 'ba'), null, 2));
  }
  const children = [];
  const archived = { a: new Set(), b: new Set() };
  try {
    children.push(await bridge(a, server.url, { archive, archived: archived.a }));
    children.push(await bridge(b, server.url, { archive, archived: archived.b }));
    // B's bridge creates B's team from Redis; wait for its config before writing there.
    for (let i = 0; i < 500; i++) {
      if (await readEntries(join(b, 'teams', TEAM, 'config.json'))) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    // The history synced to B (and, with the archiver, moved out of the files each bridge writes
    // into: both measured inboxes on A and on B).
    const ready = async () => {
      if (archive) return [archived.a, archived.b].every((set) => set.has('team-lead') && set.has(FAR));
      const [x, y] = await Promise.all([readEntries(inbox(b, FAR)), readEntries(inbox(b, 'team-lead'))]);
      return (x?.length ?? 0) >= history && (y?.length ?? 0) >= history;
    };
    for (let i = 0; history > 0 && i < 3000 && !(await ready()); i++) await new Promise((r) => setTimeout(r, 10));
    if (history > 0 && !(await ready())) throw new Error(`bench 90: the ${history}-message history was not ${archive ? 'archived by both bridges' : 'synced to B'} within 30 s`);
    const sizes = await Promise.all([inbox(a, FAR), inbox(b, FAR), inbox(b, 'team-lead'), inbox(a, 'team-lead')].map((p) => readFile(p, 'utf8').then((t) => t.length, () => 0)));
    const sent = { ab: new Map(), ba: new Map(), local: new Map() };
    const seen = { ab: new Map(), ba: new Map(), local: new Map() };
    const watches = [observe(inbox(b, FAR), seen.ab), observe(inbox(a, 'team-lead'), seen.ba), observe(inbox(a, FAR), seen.local)];
    const direction = async (root, to, from, tag, times) => {
      for (let i = 0; i < n; i++) {
        const text = `${tag}-${i}`;
        const t0 = performance.now();
        await claudeAppend(inbox(root, to), { from, text, timestamp: new Date().toISOString(), color: 'blue', read: false });
        for (const m of times) m.set(text, t0);
        await new Promise((r) => setTimeout(r, pace));
      }
    };
    const start = performance.now();
    await Promise.all([direction(a, FAR, 'team-lead', 'ab', [sent.ab, sent.local]), direction(b, 'team-lead', FAR, 'ba', [sent.ba])]);
    const deadline = performance.now() + 30_000;
    while ((seen.ab.size < n || seen.ba.size < n) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const elapsed = performance.now() - start;
    // Settle, then count every copy once more.
    await new Promise((r) => setTimeout(r, 500));
    for (const w of watches) await w.read();
    const count = (entries, tag) => {
      const texts = entries.filter((e) => e.text.startsWith(`${tag}-`)).map((e) => e.text);
      return { lost: n - new Set(texts).size, duplicated: texts.length - new Set(texts).size };
    };
    const copies = [
      count((await readEntries(inbox(b, FAR))) ?? [], 'ab'),
      count((await readEntries(inbox(a, FAR))) ?? [], 'ab'),
      count((await readEntries(inbox(a, 'team-lead'))) ?? [], 'ba'),
      count((await readEntries(inbox(b, 'team-lead'))) ?? [], 'ba'),
    ];
    for (const w of watches) w.close();
    const lat = (dir) => [...seen[dir]].filter(([t]) => sent[dir].has(t)).map(([t, at]) => at - sent[dir].get(t));
    const ab = lat('ab');
    const ba = lat('ba');
    const local = lat('local');
    const lost = copies.reduce((s, c) => s + c.lost, 0);
    const dup = copies.reduce((s, c) => s + c.duplicated, 0);
    const build = AB ? ', build at BENCH_AB_DIST' : '';
    const what = (history === 0 ? 'no history' : archive ? `${history} read history, archived by the bridge` : `${history} read history, not yet archived`) + build;
    ctx.log(`history: ${what}; inbox files before the first send: A ${FAR} ${sizes[0]} B → B ${FAR} ${sizes[1]} B; B team-lead ${sizes[2]} B → A team-lead ${sizes[3]} B`);
    ctx.log(`bridge: ${n} each way in ${(elapsed / 1000).toFixed(1)} s; lost ${lost}, duplicated ${dup}`);
    const base = { label: 'same-root detection', value: quantile(local, 0.5) };
    return [
      { metric: `bridge A→B latency p50 (${n} msgs, ${what})`, value: quantile(ab, 0.5), unit: 'ms', baseline: base, note: 'Claude Code append on A → seen in B inbox file', ...(history === 1000 && archive ? { goal: '≤ 30 ms, flat in the history' } : {}) },
      { metric: `bridge A→B latency p99, ${what}`, value: quantile(ab, 0.99), unit: 'ms', baseline: { label: 'same-root detection p99', value: quantile(local, 0.99) } },
      { metric: `bridge B→A latency p50, ${what}`, value: quantile(ba, 0.5), unit: 'ms', baseline: base },
      { metric: `bridge B→A latency p99, ${what}`, value: quantile(ba, 0.99), unit: 'ms', baseline: { label: 'same-root detection p99', value: quantile(local, 0.99) } },
      { metric: `bridge messages lost (4 copies × ${n}), ${what}`, value: lost, unit: 'msgs', note: 'goal 0' },
      { metric: `bridge messages duplicated (4 copies × ${n}), ${what}`, value: dup, unit: 'msgs', note: 'goal 0' },
    ];
  } finally {
    for (const c of children) {
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGTERM');
      await exited;
    }
    await server.stop();
  }
}
