// Delivery latency to an idle in-process teammate: from the start of `sendMessage` until the
// teammate's model receives its next request (carrying the wrapped message). The teammate is woken
// by the store watch; its safety-net poll is set to 60 s so it cannot help. Baselines, measured on
// the same samples: a plain fs.watch on the inbox directory (when the new inbox file became
// visible at all), and `sendMessage` to a registered member nobody runs (interleaved), i.e. what
// the send itself costs. Claude Code's documented poll intervals appear only in a note.
import { dirname } from 'node:path';
import { createTeam, spawnMember, sendMessage, runTeammate, openFsStores } from '../dist/index.js';
import { Layout } from '../dist/internals.js';
import { probeFile, sleep, within } from './lib/probe.mjs';
import { quantile } from './lib/stats.mjs';

const TEAM = 'bench';

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
  ctx.log(`delivery: p50 ${q(delivery, 0.5).toFixed(1)} ms, p90 ${q(delivery, 0.9).toFixed(1)} ms, p99 ${q(delivery, 0.99).toFixed(1)} ms, max ${Math.max(...delivery).toFixed(1)} ms over ${samples}`);
  const metric = (p) => `Delivery: send → idle in-process teammate's next model request, p${p}`;
  const poll = "Claude Code's documented inbox poll, for context only (not measured): 500 ms in-process teammate, 1000 ms pane teammate";
  return [
    { metric: metric(50), note: `${samples} sends; aim ≤ 20 ms; ${poll}`, value: q(delivery, 0.5), unit: 'ms', baseline: { label: '`sendMessage` alone (to a member nobody runs), p50', value: q(bare, 0.5) } },
    { metric: metric(99), value: q(delivery, 0.99), unit: 'ms', baseline: { label: '`sendMessage` alone, p99', value: q(bare, 0.99) } },
    { metric: metric(50), value: q(delivery, 0.5), unit: 'ms', baseline: { label: 'plain `fs.watch` event for the inbox file, same sends, p50', value: q(watched, 0.5) } },
    { metric: metric(99), value: q(delivery, 0.99), unit: 'ms', baseline: { label: 'plain `fs.watch` event, same sends, p99', value: q(watched, 0.99) } },
  ];
}
