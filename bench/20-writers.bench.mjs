// Many writers on one inbox. Library level: 8 processes append through the store at once, back to
// back (saturated: throughput, and the lock wait of the unlucky) and at about half the inbox's
// capacity (8 × 20 msg/s, random gaps: the lock wait a writer normally sees); lock waits come
// from LockOptions.onAcquired (for a spooled append: until another holder appended it, or it took
// the lock). Baselines: one writer, and the same 8 writers with combining off
// ($MAILROOM_INBOX_SPOOL=0, the behaviour before issue 14 item 5). CLI level: 8 concurrent
// `mailroom team send` loops against one loop.
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { runMailroom } from './lib/torture.mjs';
import { median, quantile } from './lib/stats.mjs';
import { makeTeam } from './lib/setup.mjs';

const WORKER = fileURLToPath(new URL('./lib/append-worker.mjs', import.meta.url));
const FLOOR = fileURLToPath(new URL('./lib/floor-writer.mjs', import.meta.url));

async function appenders(root, writers, count, gapMs = 0, env = process.env, floorFile = undefined) {
  const args = (w) => (floorFile ? [FLOOR, floorFile, String(count), `w${w}`] : [WORKER, root, 'team-lead', String(count), `w${w}`, String(gapMs)]);
  const children = Array.from({ length: writers }, (_, w) => spawn(process.execPath, args(w), { env, stdio: ['pipe', 'pipe', 'inherit'] }));
  const outputs = children.map((c) => {
    let out = '';
    c.stdout.on('data', (d) => (out += d));
    return { ready: new Promise((r) => c.stdout.on('data', () => out.includes('ready') && r())), done: new Promise((r) => c.on('close', () => r(out))) };
  });
  await Promise.all(outputs.map((o) => o.ready));
  const start = performance.now();
  for (const c of children) c.stdin.write('go\n');
  const results = (await Promise.all(outputs.map((o) => o.done))).map((out) => JSON.parse(out.split('\n').filter(Boolean).at(-1)));
  const seconds = (performance.now() - start) / 1000;
  return { perSecond: (writers * count) / seconds, waits: results.flatMap((r) => r.waits), holds: results.flatMap((r) => r.holds) };
}

async function cliLoops(root, writers, sends) {
  const start = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let i = 0; i < sends; i++) {
        const run = await runMailroom(['--root', root, 'team', 'send', 'team-lead', `cli-${w}-${i}`, '--from', 'a']);
        if (run.code !== 0) throw new Error(`team send failed: ${run.stderr}`);
      }
    }),
  );
  return (writers * sends) / ((performance.now() - start) / 1000);
}

export default async function writersBench(ctx) {
  const count = ctx.quick ? 50 : 200;
  const one = await appenders(await fresh(ctx), 1, count * 8);
  // The same 8 writers with combining off ($MAILROOM_INBOX_SPOOL=0): each append takes the lock
  // itself, retrying with backoff, as before the spool (the "before" figures of issue 14 item 5).
  const unfair = await appenders(await fresh(ctx), 8, count, 0, { ...process.env, MAILROOM_INBOX_SPOOL: '0' });
  const eight = await appenders(await fresh(ctx), 8, count);
  // The raw floor (issue 24): the same 8 processes, each append only mkdir-lock + read + append +
  // write + fsync + rename on a plain JSON-array file, no store.
  const floorFile = `${await ctx.tempRoot()}/inbox.json`;
  await writeFile(floorFile, '[]');
  const floor = await appenders(undefined, 8, count, 0, process.env, floorFile);
  const paced = await appenders(await fresh(ctx), 8, count / 2, 50);
  const sends = ctx.quick ? 4 : 10;
  const cliOne = await cliLoops(await fresh(ctx), 1, sends * 2);
  const cliEight = await cliLoops(await fresh(ctx), 8, sends);
  ctx.log(`8 paced writers: wait median ${median(paced.waits).toFixed(2)} ms, p99 ${quantile(paced.waits, 0.99).toFixed(1)} ms`);
  const line = (name, r) => `${name}: ${r.waits.length} appends, wait p50 ${median(r.waits).toFixed(2)} ms, p99 ${quantile(r.waits, 0.99).toFixed(1)} ms, max ${Math.max(...r.waits).toFixed(1)} ms; append p99 ${quantile(r.holds, 0.99).toFixed(1)} ms; ${r.perSecond.toFixed(0)} msg/s`;
  ctx.log(line('1 writer', one));
  ctx.log(line('8 writers, combining off', unfair));
  ctx.log(line('8 writers', eight));
  const before = { label: 'combining off, same run' };
  return [
    { metric: 'Appends to one inbox, 8 writer processes back to back (library)', value: eight.perSecond, unit: 'msg/s', baseline: { label: 'raw floor: mkdir-lock + append + fsync + rename, 8 processes', value: floor.perSecond }, goal: '≥ 0.8×' },
    { metric: 'Appends to one inbox, 8 writer processes back to back (library), against one writer', value: eight.perSecond, unit: 'msg/s', baseline: { label: '1 writer', value: one.perSecond } },
    { metric: 'Appends to one inbox, 8 writers back to back, combining off', value: unfair.perSecond, unit: 'msg/s', baseline: { label: '1 writer', value: one.perSecond } },
    { metric: 'Inbox lock wait p99, 8 writers at ~160 msg/s', value: quantile(paced.waits, 0.99), unit: 'ms', baseline: { label: 'one append, 1 writer (median)', value: median(one.holds) } },
    { metric: 'Inbox lock wait p99, 8 writers back to back', value: quantile(eight.waits, 0.99), unit: 'ms', baseline: { ...before, value: quantile(unfair.waits, 0.99) } },
    { metric: 'Inbox lock wait max, 8 writers back to back', value: Math.max(...eight.waits), unit: 'ms', baseline: { ...before, value: Math.max(...unfair.waits) } },
    { metric: 'Inbox lock wait median, 8 writers back to back', value: median(eight.waits), unit: 'ms', baseline: { ...before, value: median(unfair.waits) } },
    { metric: 'Append p99 (wait + write), 8 writers back to back', value: quantile(eight.holds, 0.99), unit: 'ms', baseline: { ...before, value: quantile(unfair.holds, 0.99) } },
    { metric: '`team send` throughput, 8 concurrent CLI loops', value: cliEight, unit: 'msg/s', baseline: { label: '1 CLI loop', value: cliOne } },
  ];
}

async function fresh(ctx) {
  const root = await ctx.tempRoot();
  await makeTeam(root, ['a']);
  return root;
}
