// Delivery latency to an idle in-process teammate: from the start of `sendMessage` until the
// teammate's model receives its next request (carrying the wrapped message). The teammate is woken
// by the store watch; its safety-net poll is set to 60 s so it cannot help. Baselines, measured on
// the same samples: a plain fs.watch on the inbox directory (when the new inbox file became
// visible at all), and `sendMessage` to a registered member nobody runs (interleaved), i.e. what
// the send itself costs. Claude Code's documented poll intervals appear only in a note.
import { dirname } from 'node:path';
import * as mailroom from '../dist/index.js';
import { createTeam, spawnMember, sendMessage, runTeammate, openFsStores } from '../dist/index.js';
import { Layout } from '../dist/internals.js';
import { probeFile, sleep, within } from './lib/probe.mjs';
import { startAgent, startFakeModel } from './lib/agents.mjs';
import { startRedis } from './lib/redis-server.mjs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStores } from '../dist/index.js';
import { quantile } from './lib/stats.mjs';
import { fileURLToPath } from 'node:url';

const TEAM = 'bench';
/** Gap before the long-idle sends (ms): past undici's keep-alive of an idle connection (4 s). */
const LONG_IDLE_MS = 5_000;

/** Runs `name` as an in-process teammate whose model answers "ok" and reports each call. */
function startEchoTeammate(store, name) {
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
  const running = runTeammate({
    root: store, team: TEAM, name, model, signal: controller.signal, takesTasks: false, pollMs: 60_000,
    onState: (s) => ((state = s), s === 'idle' && onIdle()),
  });
  return {
    idle: () => within(state === 'idle' ? Promise.resolve() : new Promise((r) => (onIdle = r)), 10_000, `${name} going idle`),
    nextCall: () => within(new Promise((r) => (onCall = r)), 10_000, `${name}'s model call`),
    stop: async () => (controller.abort(), await running),
  };
}

export default async function deliveryBench(ctx) {
  if (process.env.BENCH_AB_DIST && process.env.BENCH_AB_ONLY === '1') return agentAB(ctx); // only the A/B rows
  const samples = ctx.quick ? 30 : 200;
  const root = await ctx.tempRoot();
  const store = openFsStores(root);
  await createTeam({ root: store, team: TEAM });
  for (const name of ['alice', 'bob']) await spawnMember({ root: store, team: TEAM, name });
  await sendMessage({ root: store, team: TEAM, to: 'alice', text: 'hello' }); // creates the inbox directory to watch
  const probe = probeFile(dirname(new Layout(root).inboxPath(TEAM, 'alice')), 'alice.json');
  const alice = startEchoTeammate(store, 'alice');
  const delivery = [];
  const watched = [];
  const bare = [];
  try {
    for (let i = -10; i < samples; i++) {
      await alice.idle();
      await sleep(30); // let the idle_notification write and its watch events settle
      const b0 = performance.now();
      await sendMessage({ root: store, team: TEAM, to: 'bob', text: `bare ${i}` });
      const b1 = performance.now();
      await sleep(15);
      const called = alice.nextCall();
      const seen = probe.next();
      const t0 = performance.now();
      await sendMessage({ root: store, team: TEAM, to: 'alice', text: `ping ${i}` });
      const [t1, tw] = await Promise.all([called, seen]);
      if (i < 0) continue; // warm-up
      delivery.push(t1 - t0);
      watched.push(tw - t0);
      bare.push(b1 - b0);
    }
  } finally {
    await alice.stop();
    probe.close();
  }
  const q = (xs, p) => quantile(xs, p);
  const processRows = [...(await agentDelivery(ctx, 'files', samples)), ...(await agentDelivery(ctx, 'redis', samples)), ...(await agentAB(ctx))];
  ctx.log(`delivery: p50 ${q(delivery, 0.5).toFixed(1)} ms, p90 ${q(delivery, 0.9).toFixed(1)} ms, p99 ${q(delivery, 0.99).toFixed(1)} ms, max ${Math.max(...delivery).toFixed(1)} ms over ${samples}`);
  const metric = (p) => `Delivery: send → idle in-process teammate's next model request, p${p}`;
  const poll = "Claude Code's documented inbox poll, for context only (not measured): 500 ms in-process teammate, 1000 ms pane teammate";
  return [
    { metric: metric(50), note: `${samples} sends; aim ≤ 20 ms; ${poll}`, value: q(delivery, 0.5), unit: 'ms', baseline: { label: '`sendMessage` alone (to a member nobody runs), p50', value: q(bare, 0.5) } },
    { metric: metric(99), value: q(delivery, 0.99), unit: 'ms', baseline: { label: '`sendMessage` alone, p99', value: q(bare, 0.99) } },
    { metric: metric(50), value: q(delivery, 0.5), unit: 'ms', baseline: { label: 'plain `fs.watch` event for the inbox file, same sends, p50', value: q(watched, 0.5) } },
    { metric: metric(99), value: q(delivery, 0.99), unit: 'ms', baseline: { label: 'plain `fs.watch` event, same sends, p99', value: q(watched, 0.99) } },
    ...processRows,
  ];
}

/**
 * Send → the next model request of an idle `mailroom agent` process (the process backend), on
 * files or on a redis-server of its own: the agent's model is `anthropic:bench` pointed at a fake
 * Messages API in this process, so the request's arrival is timed on the same clock as the send.
 * Safety-net poll 60 s, so only the store's wake-up can deliver. Baselines, same run: a plain
 * fs.watch event on the inbox file (files) and a Redis pub/sub round trip (Redis); and, on the same
 * sends, when `sendMessage` itself returned (the sender's share, which the agent cannot shorten).
 * Two senders take turns, sample by sample: a one-shot send (reads the team's view, then appends:
 * two round trips on Redis) and a long-lived sender's (a kept `SenderView`, as a teammate, `mailroom
 * mcp` or `mailroom agent` sends: the append alone, under the kept view's stamp), on builds that
 * have one.
 */
async function agentDelivery(ctx, kind, samples) {
  const model = await startFakeModel();
  const redis = kind === 'redis' ? await startRedis() : undefined;
  const root = await mkdtemp(join(tmpdir(), 'mailroom-bench-agent-'));
  const store = redis ? await openStores({ kind: 'redis', url: redis.url, hostRoot: root }) : openFsStores(root);
  const where = redis ? ['--store', redis.url, '--root', root] : ['--root', root];
  let agent;
  let probe;
  const delivery = [];
  const base = [];
  const sent = [];
  const keptDelivery = [];
  const keptSent = [];
  const longIdle = [];
  const kept = mailroom.SenderView ? new mailroom.SenderView({ root: store, team: TEAM }) : undefined;
  let feed;
  try {
    // The kept view follows the team's hints, as a teammate's and `mailroom mcp`'s do (each turn's isActive writes move it).
    if (kept) {
      feed = await mailroom.TeamFeed.open(store, TEAM, { pollMs: 0 });
      feed.subscribe((hint) => kept.onHint(hint));
    }
    await createTeam({ root: store, team: TEAM });
    await spawnMember({ root: store, team: TEAM, name: 'alice' });
    await sendMessage({ root: store, team: TEAM, to: 'alice', text: 'hello' });
    probe = redis ? await redisProbe(redis) : probeFile(dirname(new Layout(root).inboxPath(TEAM, 'alice')), 'alice.json');
    const first = model.nextRequest();
    agent = await startAgent('alice', [...where, '--team', TEAM, '--model', 'anthropic:bench', '--poll-ms', '60s'], model.env);
    await first;
    for (let i = -5; i < samples; i++) {
      for (const viaKept of kept ? [i % 2 === 0, i % 2 !== 0] : [false]) {
        await sleep(150); // the turn's report to the lead and idle_notification written, watch events settled
        if (redis && !viaKept) base.push(await probe.roundTrip());
        const called = model.nextRequest();
        const seen = redis ? undefined : probe.next();
        const t0 = performance.now();
        await sendMessage({ root: store, team: TEAM, to: 'alice', text: `ping ${i}`, ...(viaKept ? { senderView: kept } : {}) });
        const t2 = performance.now();
        const [t1, tw] = await Promise.all([called, seen]);
        if (i < 0) continue;
        (viaKept ? keptDelivery : delivery).push(t1 - t0);
        (viaKept ? keptSent : sent).push(t2 - t0);
        if (!redis && !viaKept) base.push(tw - t0);
      }
    }
    // An idle agent's next request after more than undici's keep-alive (4 s, the fake API's
    // `Keep-Alive: timeout=5` less 1 s): the SDK's connection is gone and the request connects first.
    for (let i = 0; i < (ctx.quick ? 4 : 10); i++) {
      await sleep(LONG_IDLE_MS);
      const called = model.nextRequest();
      const t0 = performance.now();
      await sendMessage({ root: store, team: TEAM, to: 'alice', text: `after a long idle ${i}` });
      longIdle.push((await called) - t0);
    }
  } finally {
    await agent?.stop();
    await feed?.close();
    probe?.close();
    await store.close?.();
    await redis?.stop();
    await model.close();
  }
  ctx.log(`delivery to a mailroom agent (${kind}): p50 ${quantile(delivery, 0.5).toFixed(1)} ms, p99 ${quantile(delivery, 0.99).toFixed(1)} ms`);
  const metric = (p) => `Delivery (${kind}): send → idle \`mailroom agent\` process's next model request, p${p}`;
  const label = redis ? 'Redis PUBLISH → subscriber message, same run' : 'plain `fs.watch` event for the inbox file, same sends';
  const goal = redis ? '≤ 3 ms' : '≤ 8 ms';
  return [
    { metric: metric(50), note: `${samples} sends; fake Anthropic API on 127.0.0.1`, value: quantile(delivery, 0.5), unit: 'ms', baseline: { label: `${label}, p50`, value: quantile(base, 0.5) }, goal },
    { metric: metric(99), value: quantile(delivery, 0.99), unit: 'ms', baseline: { label: `${label}, p99`, value: quantile(base, 0.99) } },
    { metric: metric(50), value: quantile(delivery, 0.5), unit: 'ms', baseline: { label: '`sendMessage` returned (the sender\'s share), same sends, p50', value: quantile(sent, 0.5) } },
    { metric: `Delivery (${kind}): send → \`mailroom agent\` process's next model request after ${LONG_IDLE_MS / 1000} s idle (its SDK connection closed: the request connects first), p50`, note: `${longIdle.length} sends, one per ${LONG_IDLE_MS / 1000} s; loopback, no TLS (the real API adds a TCP and TLS handshake)`, value: quantile(longIdle, 0.5), unit: 'ms', baseline: { label: 'sends 150 ms apart (connection kept), same run, p50', value: quantile(delivery, 0.5) } },
    ...(kept
      ? [
          { metric: `Delivery (${kind}): send from a kept view (\`SenderView\`: a teammate's, \`mailroom agent\`'s, \`mailroom mcp\`'s) → idle \`mailroom agent\` process's next model request, p50`, note: 'interleaved with the one-shot sends above', value: quantile(keptDelivery, 0.5), unit: 'ms', baseline: { label: 'one-shot `sendMessage` (reads first), same run, p50', value: quantile(delivery, 0.5) }, goal },
          { metric: `Delivery (${kind}): send from a kept view, the sender's share (\`sendMessage\` returned), p50`, value: quantile(keptSent, 0.5), unit: 'ms', baseline: { label: 'one-shot `sendMessage`, same run, p50', value: quantile(sent, 0.5) } },
        ]
      : []),
  ];
}

/** This build: the library of ../dist/ as the sender, ../bin/mailroom.js as the agent. */
const THIS_BUILD = { name: 'this build', lib: mailroom, bin: undefined };

/**
 * `BENCH_AB_DIST=<file URL of another build's dist/>` (an A/B, e.g. main built in a second
 * worktree): the process agent's delivery with this build and with that one (its library as the
 * sender, its bin/mailroom.js as the agent), both running at once, each on its own root (or
 * redis-server) with its own fake API, and the sends interleaved one by one — A B, then B A, and so
 * on — so both arms see the same machine load. `BENCH_AB_SENDS` pairs (default 200, quick 60);
 * `BENCH_AB_KIND=redis` runs the Redis path instead of files; `BENCH_AB_KEPT=1` has each arm send
 * from a kept `SenderView` (following its hints, as a teammate's or `mailroom mcp`'s), on builds
 * that have one; `BENCH_AB_ONLY=1` runs nothing else
 * of this module. Rows: p50 and p90 of each arm, the median of the paired differences, and each
 * arm's baseline (`fs.watch` event / pub/sub round trip) and sender's share on the same sends.
 */
async function agentAB(ctx) {
  const dist = process.env.BENCH_AB_DIST;
  if (!dist) return [];
  const base = dist.endsWith('/') ? dist : `${dist}/`;
  const other = { name: `the build at ${base}`, lib: await import(new URL('index.js', base).href), bin: fileURLToPath(new URL('../bin/mailroom.js', base)) };
  const kind = process.env.BENCH_AB_KIND ?? 'files';
  const sends = Number(process.env.BENCH_AB_SENDS ?? (ctx.quick ? 60 : 200));
  const arms = [];
  try {
    arms.push(await startArm(kind, THIS_BUILD), await startArm(kind, other));
    for (let i = -5; i < sends; i++) {
      const order = i % 2 === 0 ? arms : [arms[1], arms[0]];
      for (const arm of order) {
        await sleep(100); // the turn's report to the lead and idle_notification written, watch events settled
        await arm.once(i < 0);
      }
    }
  } finally {
    for (const arm of arms) await arm.stop();
  }
  const [a, b] = arms;
  const q = quantile;
  const diffs = a.delivery.map((d, i) => d - b.delivery[i]);
  // The agent's share: each send's request arrival less its own fs.watch event (files) — the sender's noise left out.
  const share = (arm) => arm.delivery.map((d, i) => d - arm.base[i]);
  const load = (await import('node:os')).loadavg()[0].toFixed(1);
  ctx.log(`A/B (${kind}${process.env.BENCH_AB_KEPT === '1' ? ', kept sender views' : ''}): this build p50 ${q(a.delivery, 0.5).toFixed(2)} ms, other ${q(b.delivery, 0.5).toFixed(2)} ms, paired difference p50 ${q(diffs, 0.5).toFixed(2)} ms${kind === 'files' ? `; agent's share p50 ${q(share(a), 0.5).toFixed(2)} against ${q(share(b), 0.5).toFixed(2)} ms` : ''}, load ${load}`);
  const metric = (p) => `Delivery (${kind}${process.env.BENCH_AB_KEPT === '1' ? ', from kept sender views' : ''}): send → idle \`mailroom agent\` process's next model request, this build against another (A/B, sends interleaved one by one), p${p}`;
  const label = kind === 'redis' ? 'Redis PUBLISH → subscriber message' : 'plain `fs.watch` event';
  return [
    { metric: metric(50), note: `${sends} sends to each; median of the paired differences (this − other) ${q(diffs, 0.5).toFixed(2)} ms, p25 ${q(diffs, 0.25).toFixed(2)}, p75 ${q(diffs, 0.75).toFixed(2)}`, value: q(a.delivery, 0.5), unit: 'ms', baseline: { label: 'the build at BENCH_AB_DIST, same run, p50', value: q(b.delivery, 0.5) } },
    { metric: metric(90), value: q(a.delivery, 0.9), unit: 'ms', baseline: { label: 'the build at BENCH_AB_DIST, p90', value: q(b.delivery, 0.9) } },
    { metric: metric(99), value: q(a.delivery, 0.99), unit: 'ms', baseline: { label: 'the build at BENCH_AB_DIST, p99', value: q(b.delivery, 0.99) } },
    { metric: `${metric(50)}, against its own sends' ${label}`, value: q(a.delivery, 0.5), unit: 'ms', baseline: { label: `${label}, this arm's sends, p50`, value: q(a.base, 0.5) } },
    { metric: `the other build's, against its own sends' ${label}`, value: q(b.delivery, 0.5), unit: 'ms', baseline: { label: `${label}, that arm's sends, p50`, value: q(b.base, 0.5) } },
    ...(kind === 'files' ? [{ metric: 'The agent\'s share: request arrival less the same send\'s `fs.watch` event, this build (A/B, same sends as above), p50', note: `p25 ${q(share(a), 0.25).toFixed(2)} / p75 ${q(share(a), 0.75).toFixed(2)} against ${q(share(b), 0.25).toFixed(2)} / ${q(share(b), 0.75).toFixed(2)}`, value: q(share(a), 0.5), unit: 'ms', baseline: { label: 'the build at BENCH_AB_DIST, p50', value: q(share(b), 0.5) } }] : []),
    { metric: '`sendMessage` returned (the sender\'s share), this build, p50', value: q(a.sent, 0.5), unit: 'ms', baseline: { label: 'the build at BENCH_AB_DIST, p50', value: q(b.sent, 0.5) } },
  ];
}

/** One arm of {@link agentAB}: a root (or redis-server), a fake API and a running agent of `arm`'s build; `once()` measures one delivery. */
async function startArm(kind, arm) {
  const { createTeam, spawnMember, sendMessage, openStores, openFsStores, SenderView, TeamFeed } = arm.lib;
  const model = await startFakeModel();
  const redis = kind === 'redis' ? await startRedis() : undefined;
  const root = await mkdtemp(join(tmpdir(), 'mailroom-bench-ab-'));
  const store = redis ? await openStores({ kind: 'redis', url: redis.url, hostRoot: root }) : openFsStores(root);
  const where = redis ? ['--store', redis.url, '--root', root] : ['--root', root];
  await createTeam({ root: store, team: TEAM });
  await spawnMember({ root: store, team: TEAM, name: 'alice' });
  await sendMessage({ root: store, team: TEAM, to: 'alice', text: 'hello' });
  const kept = process.env.BENCH_AB_KEPT === '1' && SenderView ? new SenderView({ root: store, team: TEAM }) : undefined;
  const feed = kept ? await TeamFeed.open(store, TEAM, { pollMs: 0 }) : undefined;
  feed?.subscribe((hint) => kept.onHint(hint));
  const probe = redis ? await redisProbe(redis) : probeFile(dirname(new Layout(root).inboxPath(TEAM, 'alice')), 'alice.json');
  const first = model.nextRequest();
  const agent = await startAgent('alice', [...where, '--team', TEAM, '--model', 'anthropic:bench', '--poll-ms', '60s'], model.env, arm.bin);
  await first;
  const out = { delivery: [], base: [], sent: [] };
  let n = 0;
  return Object.assign(out, {
    async once(warmUp) {
      const b = redis ? await probe.roundTrip() : undefined;
      const called = model.nextRequest();
      const seen = redis ? undefined : probe.next();
      const t0 = performance.now();
      await sendMessage({ root: store, team: TEAM, to: 'alice', text: `ping ${n++}`, ...(kept ? { senderView: kept } : {}) });
      const t2 = performance.now();
      const [t1, tw] = await Promise.all([called, seen]);
      if (warmUp) return;
      out.delivery.push(t1 - t0);
      out.sent.push(t2 - t0);
      out.base.push(redis ? b : tw - t0);
    },
    async stop() {
      await agent.stop();
      await feed?.close();
      probe.close();
      await store.close?.();
      await redis?.stop();
      await model.close();
    },
  });
}

/** A Redis pub/sub round trip (PUBLISH from one connection → message on a subscribed one), in ms. */
async function redisProbe(redis) {
  const { createConnection } = await import('node:net');
  const url = new URL(redis.url);
  const connect = () => new Promise((resolve) => { const s = createConnection(Number(url.port), url.hostname, () => resolve(s)); });
  const sub = await connect();
  const pub = await connect();
  let waiting;
  sub.on('data', (d) => { if (String(d).includes('bench-ping') && waiting) { const w = waiting; waiting = undefined; w(performance.now()); } });
  sub.write('SUBSCRIBE bench-probe\r\n');
  await sleep(50);
  pub.on('data', () => undefined);
  return {
    roundTrip: async () => {
      const got = new Promise((r) => (waiting = r));
      const t0 = performance.now();
      pub.write('PUBLISH bench-probe bench-ping\r\n');
      return (await within(got, 5_000, 'a Redis pub/sub message')) - t0;
    },
    close: () => (sub.destroy(), pub.destroy()),
  };
}
