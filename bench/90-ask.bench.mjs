// `ask` round trip: from the start of `ask()` (the library call `mailroom team ask` makes) until it
// returns the reply of an idle in-process teammate whose model answers every message with one
// SendMessage to the asker (the reply, linked to the ask by the runtime). Its safety-net poll is
// 60 s, so only the store watch wakes it and the asker. Baseline, interleaved in the same run: a
// plain `sendMessage` to a member nobody runs (what one send costs).
import { createTeam, spawnMember, sendMessage, runTeammate, openFsStores, ask } from '../dist/index.js';
import { sleep, within } from './lib/probe.mjs';
import { quantile } from './lib/stats.mjs';

const TEAM = 'bench';

function startAnsweringTeammate(store, name) {
  let state = 'starting';
  let onIdle = () => {};
  const model = {
    id: 'bench:answer',
    async call(request) {
      const last = request.messages[request.messages.length - 1];
      if ((last?.content ?? []).some((b) => b.type === 'tool_result')) return { content: [], stopReason: 'end_turn' };
      return { content: [{ type: 'tool_use', id: `toolu_${Math.random().toString(36).slice(2)}`, name: 'SendMessage', input: { to: 'team-lead', message: 'pong' } }], stopReason: 'tool_use' };
    },
  };
  const controller = new AbortController();
  const running = runTeammate({
    root: store, team: TEAM, name, model, signal: controller.signal, takesTasks: false, pollMs: 60_000,
    onState: (s) => ((state = s), s === 'idle' && onIdle()),
  });
  return {
    idle: () => within(state === 'idle' ? Promise.resolve() : new Promise((r) => (onIdle = r)), 10_000, `${name} going idle`),
    stop: async () => (controller.abort(), await running),
  };
}

export default async function askBench(ctx) {
  const samples = ctx.quick ? 20 : 100;
  const root = await ctx.tempRoot();
  const store = openFsStores(root);
  await createTeam({ root: store, team: TEAM });
  for (const name of ['alice', 'bob']) await spawnMember({ root: store, team: TEAM, name });
  const alice = startAnsweringTeammate(store, 'alice');
  const trips = [];
  const bare = [];
  try {
    for (let i = -5; i < samples; i++) {
      await alice.idle();
      await sleep(30); // let the turn's last writes and their watch events settle
      const b0 = performance.now();
      await sendMessage({ root: store, team: TEAM, to: 'bob', text: `bare ${i}` });
      const b1 = performance.now();
      const t0 = performance.now();
      const got = await ask({ root: store, team: TEAM, to: 'alice', text: `ping ${i}`, timeoutMs: 10_000 });
      const t1 = performance.now();
      if (got.reply.text !== 'pong') throw new Error(`unexpected reply ${got.reply.text}`);
      if (i < 0) continue; // warm-up
      trips.push(t1 - t0);
      bare.push(b1 - b0);
    }
  } finally {
    await alice.stop();
  }
  const q = (xs, p) => quantile(xs, p);
  ctx.log(`ask: p50 ${q(trips, 0.5).toFixed(1)} ms, p99 ${q(trips, 0.99).toFixed(1)} ms over ${samples}`);
  const metric = (p) => `Ask: \`ask()\` → idle in-process teammate's reply returned, p${p}`;
  return [
    { metric: metric(50), note: `${samples} asks; the teammate's model answers at once`, value: q(trips, 0.5), unit: 'ms', baseline: { label: '`sendMessage` alone (to a member nobody runs), p50', value: q(bare, 0.5) } },
    { metric: metric(99), value: q(trips, 0.99), unit: 'ms', baseline: { label: '`sendMessage` alone, p99', value: q(bare, 0.99) } },
  ];
}
