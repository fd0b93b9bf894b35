// The Redis team store beside the filesystem store, in the same run (issue 16 item 7, store level):
// 8 writer processes on one inbox (aggregate msg/s, per-append p99) and 8 concurrent writers in one
// process, each beside node-redis sending the store's own append call one per await (the floor of
// issue 24 item 2) and beside a trivial EVALSHA per await (a round trip alone), in alternating rounds;
// the append script's own cost inside redis-server (server CPU per call, calls pipelined so no
// client waits on it) beside a trivial script's in alternating rounds; one writer's append p50/p99,
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

/** `n` writer processes of `kind` (bench/lib/store-worker.mjs), each with `loops` concurrent loops, kept up for several rounds. */
async function startWriters(kind, where, n, loops = 1, dist) {
  const children = Array.from({ length: n }, (_, w) => {
    const child = spawn(process.execPath, [WORKER, kind, where, `w${w}`, String(loops), ...(dist ? [dist] : [])], { stdio: ['pipe', 'pipe', 'inherit'] });
    const lines = [];
    const waiting = [];
    let buffered = '';
    child.stdout.on('data', (d) => {
      buffered += d;
      for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
        const line = buffered.slice(0, at);
        buffered = buffered.slice(at + 1);
        if (waiting.length > 0) waiting.shift()(line);
        else lines.push(line);
      }
    });
    const exited = new Promise((resolve) => child.on('close', resolve));
    const next = () => (lines.length > 0 ? Promise.resolve(lines.shift()) : Promise.race([new Promise((r) => waiting.push(r)), exited.then((code) => Promise.reject(new Error(`bench writer ${kind} exited (${code})`)))]));
    return { child, next, exited };
  });
  await Promise.all(children.map((c) => c.next()));
  return {
    /** One round of `count` appends per loop in every writer at once: msg/s, ms per append, writer CPU (µs). */
    async round(count) {
      const start = performance.now();
      for (const c of children) c.child.stdin.write(`go ${count}\n`);
      const results = (await Promise.all(children.map((c) => c.next()))).map((line) => JSON.parse(line));
      const seconds = (performance.now() - start) / 1000;
      return { appends: n * loops * count, perSecond: (n * loops * count) / seconds, ops: results.flatMap((r) => r.ops), cpuUs: results.reduce((sum, r) => sum + r.cpuUs, 0) };
    },
    async stop() {
      for (const c of children) c.child.stdin.end();
      await Promise.all(children.map((c) => c.exited));
    },
  };
}

/** One round of `count` appends per writer: msg/s, ms per append, writer CPU per append (µs). */
async function writers(kind, where, count, n, loops = 1) {
  const group = await startWriters(kind, where, n, loops);
  try {
    const r = await group.round(count);
    return { perSecond: r.perSecond, ops: r.ops, cpuPerOpUs: r.cpuUs / r.appends };
  } finally {
    await group.stop();
  }
}

/**
 * Writer groups measured in alternating rounds on one server and one inbox (ABC, CBA, ABC…), so
 * that drifting load falls on each alike. Per group: the median round's msg/s, every append's
 * time, writer CPU and redis-server CPU per append (µs), and script calls per append.
 */
async function interleaved(url, groups, rounds, count) {
  const started = await Promise.all(groups.map((g) => startWriters(g.kind, url, g.n, g.loops, g.dist)));
  const out = groups.map(() => ({ rates: [], ops: [], appends: 0, cpuUs: 0, serverUs: 0, calls: 0 }));
  const { createClient } = await import('redis');
  const stats = createClient({ url });
  await stats.connect();
  try {
    for (let r = 0; r < rounds; r++) {
      const order = groups.map((_, i) => i);
      if (r % 2 === 1) order.reverse();
      for (const i of order) {
        const before = await serverStats(stats);
        const got = await started[i].round(count);
        const after = await serverStats(stats);
        const o = out[i];
        o.rates.push(got.perSecond);
        o.ops.push(...got.ops);
        o.appends += got.appends;
        o.cpuUs += got.cpuUs;
        o.serverUs += after.cpuUs - before.cpuUs;
        o.calls += after.evalsha - before.evalsha;
      }
    }
  } finally {
    await stats.close();
    await Promise.all(started.map((g) => g.stop()));
  }
  return out.map((o) => ({ perSecond: median(o.rates), rates: o.rates, ops: o.ops, cpuPerOpUs: o.cpuUs / o.appends, serverPerOpUs: o.serverUs / o.appends, callsPerOp: o.calls / o.appends }));
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
  const rounds = ctx.quick ? 5 : 10;
  const perRound = count / rounds;
  const claimRounds = ctx.quick ? 50 : 200;
  // BENCH_AB_DIST=<URL of another build's dist/> adds that build's store as two more interleaved groups (an A/B).
  const ab = process.env.BENCH_AB_DIST;
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
    // The store's appends beside their floor (node-redis sending the store's own append-messages
    // call for one message, one per await) and a round trip alone (node-redis, one trivial EVALSHA
    // per await), from 8 processes and from 8 loops of one process, in alternating rounds.
    const groups = [
      { name: 'store, 8 processes', kind: 'redis', n: 8, loops: 1 },
      { name: 'floor, 8 processes', kind: 'floor', n: 8, loops: 1 },
      { name: 'round trip alone, 8 processes', kind: 'trivial', n: 8, loops: 1 },
      { name: 'store, 8 loops of one process', kind: 'redis', n: 1, loops: 8 },
      { name: 'floor, 8 loops of one process', kind: 'floor', n: 1, loops: 8 },
      { name: 'round trip alone, 8 loops of one process', kind: 'trivial', n: 1, loops: 8 },
      ...(ab ? [
        { name: 'other build (BENCH_AB_DIST), 8 processes', kind: 'redis', n: 8, loops: 1, dist: ab },
        { name: 'other build (BENCH_AB_DIST), 8 loops of one process', kind: 'redis', n: 1, loops: 8, dist: ab },
      ] : []),
    ];
    const measured = await interleaved(await redisTeam(plain), groups, rounds, perRound);
    const [r8, floor8, trivial8, r8in, floor8in, trivial8in] = measured;
    const script = await scriptCost(await redisTeam(plain), ctx.quick ? 4 : 8);
    const f8 = await writers('fs', await fsRoot(), Math.ceil(count / 4), 8);
    const r1 = await writers('redis', await redisTeam(plain), count, 1);
    const a1 = await writers('redis', await redisTeam(aof), count / 2, 1);
    const f1 = await writers('fs', await fsRoot(), count / 2, 1);
    const rc = await races('redis', await redisTeam(plain), claimRounds);
    const fc = await races('fs', await fsRoot(), Math.ceil(claimRounds / 4));
    groups.forEach((g, i) => {
      const m = measured[i];
      ctx.log(`${g.name}: ${m.rates.map((x) => Math.round(x)).join(' / ')} msg/s per round (median ${Math.round(m.perSecond)}), p50 ${median(m.ops).toFixed(2)} ms, p99 ${quantile(m.ops, 0.99).toFixed(2)} ms, CPU per append ${m.cpuPerOpUs.toFixed(0)} µs in the writers + ${m.serverPerOpUs.toFixed(0)} µs in redis-server, ${m.callsPerOp.toFixed(2)} EVALSHA per append`);
    });
    ctx.log(`append-messages inside redis-server, server CPU per call (pipelined): ${script.append.map((x) => x.toFixed(1)).join(' / ')} µs per round; a trivial EVALSHA ${script.trivial.map((x) => x.toFixed(1)).join(' / ')} µs`);
    ctx.log(`fs 8 writers: ${f8.ops.length} appends, p50 ${median(f8.ops).toFixed(2)} ms, p99 ${quantile(f8.ops, 0.99).toFixed(2)} ms`);
    const perOp = r8.cpuPerOpUs + r8.serverPerOpUs;
    ctx.log(`redis 8 writers: CPU per append ${r8.cpuPerOpUs.toFixed(0)} µs in the writer + ${r8.serverPerOpUs.toFixed(0)} µs in redis-server: on ${cpus()} idle cores at most ~${Math.round((cpus() * 1e6) / perOp)} msg/s (load average now ${loadavg()[0].toFixed(1)})`);
    ctx.log(`claim races with exactly one winner: redis ${rc.exactlyOne}/${rc.rounds}, fs ${fc.exactlyOne}/${fc.rounds}`);
    // Rounds of two groups taken one after the other meet the same load: the median of their
    // per-round ratios is steadier than the ratio of their medians on a shared machine.
    const paired = (a, b) => `median of per-round ratios ${median(a.rates.map((x, r) => x / b.rates[r])).toFixed(2)}×`;
    const abRows = ab
      ? [
          { metric: 'Redis store: appends to one inbox, 8 writer processes, this build against another (A/B, interleaved)', value: r8.perSecond, unit: 'msg/s', baseline: { label: 'the build at BENCH_AB_DIST', value: measured[6].perSecond }, note: paired(r8, measured[6]) },
          { metric: 'Redis store: appends to one inbox, 8 concurrent writers in one process, this build against another (A/B, interleaved)', value: r8in.perSecond, unit: 'msg/s', baseline: { label: 'the build at BENCH_AB_DIST', value: measured[7].perSecond }, note: paired(r8in, measured[7]) },
          { metric: 'Redis store: CPU per append, 8 writer processes (writer + redis-server), this build against another', value: r8.cpuPerOpUs + r8.serverPerOpUs, unit: 'µs', baseline: { label: 'the build at BENCH_AB_DIST', value: measured[6].cpuPerOpUs + measured[6].serverPerOpUs } },
          { metric: 'Redis store: CPU per append, 8 concurrent writers in one process (writer + redis-server), this build against another', value: r8in.cpuPerOpUs + r8in.serverPerOpUs, unit: 'µs', baseline: { label: 'the build at BENCH_AB_DIST', value: measured[7].cpuPerOpUs + measured[7].serverPerOpUs } },
        ]
      : [];
    return [
      { metric: 'Redis store: appends to one inbox, 8 writer processes', value: r8.perSecond, unit: 'msg/s', baseline: { label: "node-redis, 8 processes, the store's own append-messages call per await (interleaved)", value: floor8.perSecond }, note: paired(r8, floor8), goal: '≥ 5 000 msg/s' },
      { metric: 'Redis store: appends to one inbox, 8 concurrent writers in one process (combined calls)', value: r8in.perSecond, unit: 'msg/s', baseline: { label: "node-redis, 8 loops of one process, the store's own append-messages call per await (interleaved)", value: floor8in.perSecond }, note: paired(r8in, floor8in), goal: '≥ 5 000 msg/s and ≥ 1.5×' },
      { metric: 'Redis store: appends to one inbox, 8 writer processes, against a round trip alone', value: r8.perSecond, unit: 'msg/s', baseline: { label: 'node-redis, 8 processes, one trivial EVALSHA (INCR) per await, no append (interleaved)', value: trivial8.perSecond } },
      { metric: 'Redis store: appends to one inbox, 8 concurrent writers in one process, against a round trip alone', value: r8in.perSecond, unit: 'msg/s', baseline: { label: 'node-redis, 8 loops of one process, one trivial EVALSHA (INCR) per await, no append (interleaved)', value: trivial8in.perSecond } },
      ...abRows,
      { metric: "Redis store: the append-messages script inside redis-server, server CPU per call (one message, calls pipelined)", value: median(script.append), unit: 'µs', baseline: { label: 'one trivial EVALSHA (INCR), same loop, alternating rounds', value: median(script.trivial) } },
      { metric: 'Redis store: appends to one inbox, 8 writer processes, against files', value: r8.perSecond, unit: 'msg/s', baseline: { label: 'filesystem store, 8 writers', value: f8.perSecond } },
      { metric: 'Redis store: CPU per append, 8 writer processes (writer + redis-server)', value: perOp, unit: 'µs', baseline: { label: "node-redis, the store's own append-messages call per await (writer + redis-server)", value: floor8.cpuPerOpUs + floor8.serverPerOpUs } },
      { metric: 'Redis store: CPU per append, 8 concurrent writers in one process (writer + redis-server)', value: r8in.cpuPerOpUs + r8in.serverPerOpUs, unit: 'µs', baseline: { label: "node-redis, 8 loops, the store's own append-messages call per await (writer + redis-server)", value: floor8in.cpuPerOpUs + floor8in.serverPerOpUs } },
      { metric: 'Redis store: CPU per append, 8 writer processes, against files', value: perOp, unit: 'µs', baseline: { label: 'filesystem store (writer)', value: f8.cpuPerOpUs } },
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

/**
 * The append script's own cost inside redis-server, apart from any client: the store's
 * append-messages call for one message (bench/lib/stores.mjs `floor`'s keys and arguments) sent
 * 1 000 times a round, 100 at a time pipelined, beside the same loop of a trivial EVALSHA (an INCR),
 * in alternating rounds; per round, redis-server's main-thread CPU (`INFO cpu`) over the calls, µs
 * per call. What a change to the script (or to how an inbox is stored) saves shows here first.
 */
async function scriptCost(url, rounds) {
  const { createClient } = await import('redis');
  const { makeInboxEntry } = await import('../dist/protocol/inbox.js');
  const { script } = await import('../dist/store/redis/scripts.js');
  const { appendArgs } = await import('../dist/store/redis/inboxes.js');
  const { teamBase } = await import('../dist/store/redis/keys.js');
  const client = createClient({ url });
  await client.connect();
  try {
    const appendSha = await client.scriptLoad(script('append-messages').source);
    const trivialSha = await client.scriptLoad("return redis.call('INCR', KEYS[1])");
    const keys = [teamBase('t')];
    let n = 0;
    const call = {
      append: () => {
        n++;
        const entry = makeInboxEntry({ from: 'a', text: `cost-${n}`, timestamp: new Date().toISOString(), msgId: `cost-${n}` });
        return client.evalSha(appendSha, { keys, arguments: appendArgs('t', [{ to: 'team-lead', entry }]) });
      },
      trivial: () => client.evalSha(trivialSha, { keys: ['bench:cost'] }),
    };
    const out = { append: [], trivial: [] };
    for (let r = 0; r < rounds; r++) {
      for (const kind of r % 2 === 0 ? ['append', 'trivial'] : ['trivial', 'append']) {
        const before = await mainThreadCpuUs(client);
        for (let b = 0; b < 10; b++) await Promise.all(Array.from({ length: 100 }, call[kind]));
        out[kind].push(((await mainThreadCpuUs(client)) - before) / 1000);
      }
    }
    return out;
  } finally {
    await client.close();
  }
}

/** redis-server's main-thread CPU time so far (µs; the whole process's on a server without those fields). */
async function mainThreadCpuUs(client) {
  const info = await client.info('cpu');
  const field = (name) => Number(new RegExp(`${name}:([0-9.]+)`).exec(info)?.[1] ?? NaN);
  const main = field('used_cpu_user_main_thread') + field('used_cpu_sys_main_thread');
  return (Number.isNaN(main) ? field('used_cpu_user') + field('used_cpu_sys') : main) * 1e6;
}

/** redis-server's CPU time so far (µs) and its EVALSHA calls so far, asked through `client` (node-redis). */
async function serverStats(client) {
  const info = `${await client.info('cpu')}\n${await client.info('commandstats')}`;
  const field = (name) => Number(new RegExp(`${name}:([0-9.]+)`).exec(info)?.[1] ?? 0);
  return { cpuUs: (field('used_cpu_sys') + field('used_cpu_user')) * 1e6, evalsha: Number(/cmdstat_evalsha:calls=(\d+)/.exec(info)?.[1] ?? 0) };
}

async function fetchFlush(url) {
  const { createClient } = await import('redis');
  const client = createClient({ url });
  await client.connect();
  await client.flushAll();
  await client.close();
}
