// The runtime on the Redis store beside the filesystem store, in the same run (issue 16 item 7,
// runtime level):
// * delivery across two "machines": the sender and the teammate each open the store on their own
//   (their own connections, their own host directory), in one process: from the start of
//   `sendMessage` on A until the idle in-process teammate on B gets its next model request. The
//   teammate is woken by the store's push (Redis: pub/sub from the append script; files: the
//   inbox watch); its safety-net poll is 60 s so it cannot help. Same loop on both backends.
// * CPU of 50 idle in-process teammates over one window, Redis and files side by side (each a
//   host process of its own, bench/lib/idle-child.mjs), plus the CPU redis-server spent meanwhile.
// Redis is a redis-server of its own on loopback without persistence.
import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTeam, openStores, runTeammate, sendMessage, spawnMember } from '../dist/index.js';
import { sleep, within } from './lib/probe.mjs';
import { startRedis } from './lib/redis-server.mjs';
import { quantile } from './lib/stats.mjs';

const TEAM = 'bench';
const IDLE = 50;
const CHILD = fileURLToPath(new URL('./lib/idle-child.mjs', import.meta.url));

/** `name` as an in-process teammate whose model answers "ok" and reports each call. */
function echoTeammate(stores, name) {
  let state = 'starting';
  let onIdle = () => {};
  let onCall = () => {};
  const model = {
    id: 'bench:echo',
    async call() {
      onCall(performance.now());
      return { content: [{ type: 'text', text: 'ok' }], stopReason: 'end_turn' };
    },
  };
  const controller = new AbortController();
  const running = runTeammate({ root: stores, team: TEAM, name, model, signal: controller.signal, takesTasks: false, pollMs: 60_000, onState: (s) => ((state = s), s === 'idle' && onIdle()) });
  return {
    idle: () => within(state === 'idle' ? Promise.resolve() : new Promise((r) => (onIdle = r)), 10_000, `${name} going idle`),
    nextCall: () => within(new Promise((r) => (onCall = r)), 10_000, `${name}'s model call`),
    stop: async () => (controller.abort(), await running),
  };
}

/** Delivery samples (ms) with the sender on `a` and the teammate on `b`, two openings of one store. */
async function delivery(a, b, samples) {
  await createTeam({ root: a, team: TEAM });
  await spawnMember({ root: a, team: TEAM, name: 'alice' });
  const alice = echoTeammate(b, 'alice');
  const out = [];
  try {
    for (let i = -10; i < samples; i++) {
      await alice.idle();
      await sleep(20); // the idle notification and its hints settle
      const called = alice.nextCall();
      const t0 = performance.now();
      await sendMessage({ root: a, team: TEAM, to: 'alice', text: `ping ${i}` });
      const t1 = await called;
      if (i >= 0) out.push(t1 - t0);
    }
  } finally {
    await alice.stop();
  }
  return out;
}

/** Starts an idle host (idle-child.mjs); resolves once it printed "ready". */
function idleHost(args) {
  const child = spawn(process.execPath, ['--expose-gc', CHILD, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise((resolve, reject) => child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out.split('\n')[1])) : reject(new Error(`idle-child exited ${code}: ${err}`)))));
  const ready = new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => ((out += d), out.startsWith('ready\n') && resolve()));
    exited.catch(reject);
  });
  return { ready, go: (windowMs) => (child.stdin.write(`go ${windowMs}\n`), exited) };
}

async function idleTeam(root) {
  const stores = await openStores(root.startsWith('redis://') ? { kind: 'redis', url: root, hostRoot: tmpdir() } : { kind: 'fs', root });
  try {
    await createTeam({ root: stores, team: 'idle' });
    for (let i = 0; i < IDLE; i++) await spawnMember({ root: stores, team: 'idle', name: `t${i}` });
  } finally {
    await stores.close();
  }
}

export default async function redisRuntimeBench(ctx) {
  const samples = ctx.quick ? 30 : 200;
  const windowMs = ctx.quick ? 3_000 : 10_000;
  const settle = ctx.quick ? '3000' : '12000';
  const server = await startRedis();
  const opened = [];
  const open = async (selection) => {
    const s = await openStores(selection);
    opened.push(s);
    return s;
  };
  try {
    const hostA = await ctx.tempRoot();
    const hostB = await ctx.tempRoot();
    const redisDelivery = await delivery(await open({ kind: 'redis', url: `${server.url}/1`, hostRoot: hostA }), await open({ kind: 'redis', url: `${server.url}/1`, hostRoot: hostB }), samples);
    const fsRoot = await ctx.tempRoot();
    const fsDelivery = await delivery(await open({ kind: 'fs', root: fsRoot }), await open({ kind: 'fs', root: fsRoot }), samples);
    ctx.log(`delivery redis: p50 ${quantile(redisDelivery, 0.5).toFixed(2)} ms, p99 ${quantile(redisDelivery, 0.99).toFixed(2)} ms; files: p50 ${quantile(fsDelivery, 0.5).toFixed(2)} ms, p99 ${quantile(fsDelivery, 0.99).toFixed(2)} ms (${samples} sends each)`);

    const redisIdle = `${server.url}/2`;
    await idleTeam(redisIdle);
    const fsIdle = await mkdtemp(join(await ctx.tempRoot(), 'idle-'));
    await idleTeam(fsIdle);
    const hosts = { redis: idleHost([redisIdle, String(IDLE), '2000', settle]), fs: idleHost([fsIdle, String(IDLE), '2000', settle]) };
    await Promise.all(Object.values(hosts).map((h) => h.ready));
    const server0 = await serverCpuMs(server.url);
    const [r, f] = await Promise.all([hosts.redis.go(windowMs), hosts.fs.go(windowMs)]);
    const serverMs = (await serverCpuMs(server.url)) - server0;
    const pct = (x) => (x.cpuMs / x.elapsedMs) * 100;
    const serverPct = (serverMs / r.elapsedMs) * 100;
    ctx.log(`idle ${IDLE} teammates: redis host ${pct(r).toFixed(2)} % + redis-server ${serverPct.toFixed(2)} %, files host ${pct(f).toFixed(2)} % of a core`);
    const d = (p) => `Redis store: delivery send (machine A) → idle teammate's next model request (machine B), p${p}`;
    return [
      { metric: d(50), note: `${samples} sends; goal ≤ 5 ms on loopback`, value: quantile(redisDelivery, 0.5), unit: 'ms', baseline: { label: 'filesystem store, same loop', value: quantile(fsDelivery, 0.5) } },
      { metric: d(99), value: quantile(redisDelivery, 0.99), unit: 'ms', baseline: { label: 'filesystem store, same loop', value: quantile(fsDelivery, 0.99) } },
      { metric: `Redis store: CPU of a host with ${IDLE} idle in-process teammates (poll 2 s)`, note: `${(windowMs / 1000).toFixed(0)} s window; redis-server used ${serverPct.toFixed(2)} % of a core meanwhile`, value: pct(r), unit: '% of a core', baseline: { label: `filesystem store, ${IDLE} idle teammates, same window`, value: pct(f) } },
    ];
  } finally {
    for (const s of opened) await s.close().catch(() => undefined);
    await server.stop();
  }
}

/** CPU time redis-server has used so far (ms). */
async function serverCpuMs(url) {
  const { createClient } = await import('redis');
  const client = createClient({ url });
  await client.connect();
  const info = await client.info('cpu');
  await client.close();
  const field = (name) => Number(new RegExp(`${name}:([0-9.]+)`).exec(info)?.[1] ?? 0);
  return (field('used_cpu_sys') + field('used_cpu_user')) * 1e3;
}
