#!/usr/bin/env node
// CPU and memory of idle in-process teammates (over dist/): one host, N teammates waiting for
// work (no messages, no tasks), measured over a quiet window. Wake-ups come from one shared watch;
// the safety-net re-read runs every pollMs (default 2000, as in production).
// Usage: node bench/runtime-idle.mjs [teammates=50] [windowMs=10000] [pollMs=2000]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTeam, spawnMember, createWorkerModel, InProcessHost, FsStore } from '../dist/index.js';

const count = Number(process.argv[2] ?? 50);
const windowMs = Number(process.argv[3] ?? 10_000);
const pollMs = Number(process.argv[4] ?? 2_000);
const root = await mkdtemp(join(tmpdir(), 'mailroom-bench-idle-'));
const store = new FsStore(root);
await createTeam({ root: store, team: 'idle' });
for (let i = 0; i < count; i++) await spawnMember({ root: store, team: 'idle', name: `t${i}` });

const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);
global.gc?.();
const rssBefore = process.memoryUsage().rss;
const host = await InProcessHost.open({ root: store, team: 'idle', pollMs });
const teammates = Array.from({ length: count }, (_, i) => host.add(`t${i}`, createWorkerModel()));
while (teammates.some((t) => t.state !== 'idle')) await new Promise((r) => setTimeout(r, 20));
await new Promise((r) => setTimeout(r, 1_000)); // settle
global.gc?.();
const rssIdle = process.memoryUsage().rss;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
await new Promise((r) => setTimeout(r, windowMs));
const cpu = process.cpuUsage(cpu0);
const elapsed = performance.now() - t0;
const cpuMs = (cpu.user + cpu.system) / 1000;
await host.close();
await rm(root, { recursive: true, force: true });

console.log(`${count} idle in-process teammates, ${(elapsed / 1000).toFixed(1)} s window, safety-net poll ${pollMs} ms (node ${process.version}, ${process.platform})`);
console.log(`  CPU  ${cpuMs.toFixed(0)} ms over the window = ${((cpuMs / elapsed) * 100).toFixed(2)} % of one core (${(cpuMs / count / (elapsed / 1000)).toFixed(2)} ms per teammate per second)`);
console.log(`  RSS  ${mb(rssIdle)} MB with the team idle; +${mb(rssIdle - rssBefore)} MB for the host and ${count} teammates (${((rssIdle - rssBefore) / count / 1024).toFixed(0)} KB each)`);
