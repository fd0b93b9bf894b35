// Presence (issue 10). (1) CPU of 50 members' presence: one process holding 50 reader claims that
// beat every 5 s (presence on) beside one holding them with no beat in the window (off), measured
// over the same window. (2) config.json rewrites caused by isActive in a busy team: 5 in-process
// worker teammates doing 40 quick command tasks; every member-updated event that changed isActive
// is one rewrite (two per turn: true at its start, false at its end), per minute of the run, beside
// the tasks completed per minute of the same run.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { InProcessHost, addTask, createTeam, createWorkerModel, openFsStores, spawnMember } from '../dist/index.js';

const CHILD = fileURLToPath(new URL('./lib/presence-child.mjs', import.meta.url));
const COUNT = 50;

function startChild(args) {
  const child = spawn(process.execPath, [CHILD, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise((resolve, reject) => child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out.split('\n')[1])) : reject(new Error(`presence-child exited ${code}: ${err}`)))));
  const ready = new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => ((out += d), out.startsWith('ready\n') && resolve()));
    exited.catch(reject);
  });
  return { ready, go: (ms) => (child.stdin.write(`go ${ms}\n`), exited) };
}

async function team(ctx, members) {
  const root = await ctx.tempRoot();
  await createTeam({ root: openFsStores(root), team: 'p' });
  for (let i = 0; i < members; i++) await spawnMember({ root: openFsStores(root), team: 'p', name: `t${i}` });
  return root;
}

async function busyTeam(ctx) {
  const root = await team(ctx, 5);
  for (let i = 0; i < 40; i++) await addTask({ root: openFsStores(root), team: 'p', subject: `job ${i}`, metadata: { command: 'true' } });
  const host = await InProcessHost.open({ root: openFsStores(root), team: 'p', pollMs: 500 });
  const store = openFsStores(root).team;
  const started = performance.now();
  for (let i = 0; i < 5; i++) host.add(`t${i}`, createWorkerModel());
  for (;;) {
    const tasks = await store.listTasks('p');
    if (tasks.every((t) => t.status === 'completed')) break;
    if (performance.now() - started > 120_000) throw new Error('busy team did not finish in 2 min');
    await new Promise((r) => setTimeout(r, 100));
  }
  const minutes = (performance.now() - started) / 60_000;
  await host.close();
  const { events } = await store.readEvents('p');
  const rewrites = events.filter((e) => e.kind === 'member' && e.action === 'updated' && (e.changed ?? []).includes('isActive')).length;
  return { minutes, rewrites, tasks: 40 };
}

export default async function presenceBench(ctx) {
  const windowMs = ctx.quick ? 6_000 : 20_000;
  const on = startChild([await team(ctx, COUNT), String(COUNT), '5000']);
  const off = startChild([await team(ctx, COUNT), String(COUNT), String(10 * windowMs)]);
  await Promise.all([on.ready, off.ready]);
  const [rOn, rOff] = await Promise.all([on.go(windowMs), off.go(windowMs)]);
  const pct = (x) => (x.cpuMs / x.elapsedMs) * 100;
  const busy = await busyTeam(ctx);
  ctx.log(`presence: on ${pct(rOn).toFixed(3)} %, off ${pct(rOff).toFixed(3)} %; busy team ${busy.rewrites} isActive rewrites in ${(busy.minutes * 60).toFixed(1)} s`);
  return [
    { metric: `Presence: CPU of ${COUNT} members' heartbeats (beat 5 s)`, note: `${(windowMs / 1000).toFixed(0)} s window; target < 2 % of a core`, value: pct(rOn), unit: '% of a core', baseline: { label: 'same claims, no beat in the window', value: pct(rOff) } },
    { metric: 'Presence: config.json rewrites by isActive, busy team (5 workers, 40 command tasks)', note: `${busy.rewrites} rewrites for ${busy.tasks} tasks (${(busy.rewrites / busy.tasks).toFixed(1)} per task)`, value: busy.rewrites / busy.minutes, unit: 'rewrites/min', baseline: { label: 'tasks completed per minute, same run', value: busy.tasks / busy.minutes } },
  ];
}
