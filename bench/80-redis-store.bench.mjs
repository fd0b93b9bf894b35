// The Redis team store beside the filesystem store, in the same run (issue 16 item 7, store level):
// 8 writer processes on one inbox (aggregate msg/s, per-append p99), one writer's append p50/p99,
// and claim races (4 claimants on one task: time until all have an answer, and that exactly one
// won every race). Redis is a redis-server of its own on loopback, without persistence, and again
// with AOF appendfsync always for the single-writer figures.
import { spawn } from 'node:child_process';
import { availableParallelism as cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { median, quantile } from './lib/stats.mjs';
import { startRedis } from './lib/redis-server.mjs';
import { openClaims, setUp } from './lib/stores.mjs';

const WORKER = fileURLToPath(new URL('./lib/store-worker.mjs', import.meta.url));

async function writers(kind, where, count, n, loops = 1) {
  const children = Array.from({ length: n }, (_, w) => spawn(process.execPath, [WORKER, kind, where, String(count), `w${w}`, String(loops)], { stdio: ['pipe', 'pipe', 'inherit'] }));
  const outs = children.map((c) => {
    let out = '';
    c.stdout.on('data', (d) => (out += d));
    return { ready: new Promise((r) => c.stdout.on('data', () => out.includes('ready') && r())), done: new Promise((r) => c.on('close', () => r(out))) };
  });
  await Promise.all(outs.map((o) => o.ready));
  const start = performance.now();
  for (const c of children) c.stdin.write('go\n');
  const results = (await Promise.all(outs.map((o) => o.done))).map((out) => JSON.parse(out.split('\n').filter(Boolean).at(-1)));
  const ops = results.flatMap((r) => r.ops);
  const cpuUs = results.reduce((sum, r) => sum + r.cpuUs, 0);
  return { perSecond: (n * count * loops) / ((performance.now() - start) / 1000), ops, cpuPerOpUs: cpuUs / (n * count * loops) };
}

async function races(kind, where, rounds) {
  const stores = await Promise.all(['a', 'b', 'c', 'd'].map(() => openClaims(kind, where)));
  const times = [];
  let exactlyOne = 0;
  for (let r = 0; r < rounds; r++) {
    const id = await stores[0].create();
    const start = performance.now();
    const results = await Promise.allSettled(stores.map((s, i) => s.claim('abcd'[i], id)));
    times.push(performance.now() - start);
    if (results.filter((x) => x.status === 'fulfilled').length === 1) exactlyOne++;
  }
  await Promise.all(stores.map((s) => s.close()));
  return { times, exactlyOne, rounds };
}

export default async function redisStoreBench(ctx) {
  const count = ctx.quick ? 250 : 1000;
  const rounds = ctx.quick ? 50 : 200;
  const plain = await startRedis();
  const aof = await startRedis({ aof: true });
  try {
    const fsRoot = async () => {
      const root = await ctx.tempRoot();
      await setUp('fs', root);
      return root;
    };
    const redisTeam = async (server) => {
      await fetchFlush(server.url);
      await setUp('redis', server.url);
      return server.url;
    };
    const url8 = await redisTeam(plain);
    const serverCpu0 = await serverCpuUs(url8);
    const r8 = await writers('redis', url8, count, 8);
    const serverPerOpUs = ((await serverCpuUs(url8)) - serverCpu0) / (8 * count);
    // The floor of issue 24: node-redis, one trivial EVALSHA per await, from the same 8 processes
    // and from 8 loops of one process (where appends of one tick may share a script call).
    const floor8 = await writers('floor', url8, count, 8);
    const r8in = await writers('redis', await redisTeam(plain), count, 1, 8);
    const floor8in = await writers('floor', url8, count, 1, 8);
    const f8 = await writers('fs', await fsRoot(), Math.ceil(count / 4), 8);
    const r1 = await writers('redis', await redisTeam(plain), count, 1);
    const a1 = await writers('redis', await redisTeam(aof), count / 2, 1);
    const f1 = await writers('fs', await fsRoot(), count / 2, 1);
    const rc = await races('redis', await redisTeam(plain), rounds);
    const fc = await races('fs', await fsRoot(), Math.ceil(rounds / 4));
    ctx.log(`redis 8 writers: ${r8.ops.length} appends, p50 ${median(r8.ops).toFixed(2)} ms, p99 ${quantile(r8.ops, 0.99).toFixed(2)} ms`);
    ctx.log(`redis 8 loops in one process: ${r8in.ops.length} appends, p50 ${median(r8in.ops).toFixed(2)} ms, CPU per append ${r8in.cpuPerOpUs.toFixed(0)} µs in the writer`);
    ctx.log(`fs 8 writers: ${f8.ops.length} appends, p50 ${median(f8.ops).toFixed(2)} ms, p99 ${quantile(f8.ops, 0.99).toFixed(2)} ms`);
    const perOp = r8.cpuPerOpUs + serverPerOpUs;
    ctx.log(`redis 8 writers: CPU per append ${r8.cpuPerOpUs.toFixed(0)} µs in the writer + ${serverPerOpUs.toFixed(0)} µs in redis-server: on ${cpus()} idle cores at most ~${Math.round((cpus() * 1e6) / perOp)} msg/s (load average now ${loadavg()[0].toFixed(1)})`);
    ctx.log(`claim races with exactly one winner: redis ${rc.exactlyOne}/${rc.rounds}, fs ${fc.exactlyOne}/${fc.rounds}`);
    return [
      { metric: 'Redis store: appends to one inbox, 8 writer processes', value: r8.perSecond, unit: 'msg/s', baseline: { label: 'node-redis, 8 processes, one trivial EVALSHA per await', value: floor8.perSecond }, goal: '≥ 5 000 msg/s and ≥ 1.5×' },
      { metric: 'Redis store: appends to one inbox, 8 concurrent writers in one process (combined calls)', value: r8in.perSecond, unit: 'msg/s', baseline: { label: 'node-redis, 8 loops of one process, one trivial EVALSHA per await', value: floor8in.perSecond }, goal: '≥ 5 000 msg/s and ≥ 1.5×' },
      { metric: 'Redis store: appends to one inbox, 8 writer processes, against files', value: r8.perSecond, unit: 'msg/s', baseline: { label: 'filesystem store, 8 writers', value: f8.perSecond } },
      { metric: 'Redis store: CPU per append, 8 writers (writer + redis-server)', value: perOp, unit: 'µs', baseline: { label: 'filesystem store (writer)', value: f8.cpuPerOpUs } },
      { metric: 'Redis store: one append p99, 8 writers', value: quantile(r8.ops, 0.99), unit: 'ms', baseline: { label: 'filesystem store, 8 writers', value: quantile(f8.ops, 0.99) } },
      { metric: 'Redis store: one append p50, 1 writer', value: median(r1.ops), unit: 'ms', baseline: { label: 'filesystem store', value: median(f1.ops) } },
      { metric: 'Redis store: one append p99, 1 writer', value: quantile(r1.ops, 0.99), unit: 'ms', baseline: { label: 'filesystem store', value: quantile(f1.ops, 0.99) } },
      { metric: 'Redis store (AOF appendfsync always): one append p50, 1 writer', value: median(a1.ops), unit: 'ms', baseline: { label: 'Redis, no persistence', value: median(r1.ops) } },
      { metric: 'Redis store: claim race, 4 claimants on one task, p50', value: median(rc.times), unit: 'ms', baseline: { label: 'filesystem store', value: median(fc.times) } },
      { metric: 'Redis store: claim race p99', value: quantile(rc.times, 0.99), unit: 'ms', baseline: { label: 'filesystem store', value: quantile(fc.times, 0.99) } },
      { metric: 'Redis store: claim races with exactly one winner', value: (100 * rc.exactlyOne) / rc.rounds, unit: '%', baseline: { label: 'filesystem store', value: (100 * fc.exactlyOne) / fc.rounds } },
    ];
  } finally {
    await plain.stop();
    await aof.stop();
  }
}

/** CPU time redis-server has used so far (µs). */
async function serverCpuUs(url) {
  const { createClient } = await import('redis');
  const client = createClient({ url });
  await client.connect();
  const info = await client.info('cpu');
  await client.close();
  const field = (name) => Number(new RegExp(`${name}:([0-9.]+)`).exec(info)?.[1] ?? 0);
  return (field('used_cpu_sys') + field('used_cpu_user')) * 1e6;
}

async function fetchFlush(url) {
  const { createClient } = await import('redis');
  const client = createClient({ url });
  await client.connect();
  await client.flushAll();
  await client.close();
}
