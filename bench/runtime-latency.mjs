#!/usr/bin/env node
// Send → next model request latency for an idle in-process teammate (over dist/).
// A teammate waits idle; we send it a message with sendMessage and time until its model's call()
// starts (the request carries the wrapped message). Wake-up is the store watch (chokidar) — the
// safety-net poll is set to 60 s so it cannot help. Prints p50/p90/p99/max in ms.
// Usage: node bench/runtime-latency.mjs [samples=200]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTeam, spawnMember, sendMessage, runTeammate, FsStore } from '../dist/index.js';

const samples = Number(process.argv[2] ?? 200);
const root = await mkdtemp(join(tmpdir(), 'mailroom-bench-latency-'));
const store = new FsStore(root);
await createTeam({ root: store, team: 'bench' });
await spawnMember({ root: store, team: 'bench', name: 'alice' });

let onCall = () => {};
let state = 'starting';
let onIdle = () => {};
const model = {
  id: 'bench:echo',
  async call() {
    onCall(performance.now());
    return { content: [{ type: 'text', text: 'ok' }], stopReason: 'end_turn' };
  },
};
const controller = new AbortController();
const running = runTeammate({
  root: store, team: 'bench', name: 'alice', model, signal: controller.signal, takesTasks: false, pollMs: 60_000,
  onState: (s) => { state = s; if (s === 'idle') onIdle(); },
  log: process.env.BENCH_DEBUG ? (l) => console.error(performance.now().toFixed(0), l) : undefined,
});

const idle = () => (state === 'idle' ? Promise.resolve() : new Promise((r) => (onIdle = r)));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const latencies = [];
for (let i = 0; i < samples + 10; i++) {
  await idle();
  await sleep(30); // let the idle_notification write and its watch events settle
  const called = new Promise((r) => (onCall = r));
  const t0 = performance.now();
  await sendMessage({ root: store, team: 'bench', to: 'alice', text: `ping ${i}` });
  const t1 = await called;
  if (i >= 10) latencies.push(t1 - t0); // first 10 are warm-up
  if (process.env.BENCH_DEBUG) console.error(i, (t1 - t0).toFixed(1));
}
controller.abort();
await running;
await rm(root, { recursive: true, force: true });

latencies.sort((a, b) => a - b);
const q = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))].toFixed(1);
console.log(`send → next model request, idle in-process teammate, ${latencies.length} samples (node ${process.version}, ${process.platform})`);
console.log(`  p50 ${q(0.5)} ms   p90 ${q(0.9)} ms   p99 ${q(0.99)} ms   max ${latencies[latencies.length - 1].toFixed(1)} ms   (aim: p50 ≤ 20 ms)`);
