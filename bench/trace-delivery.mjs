// Traces delivery to an idle `mailroom agent` process (issue 24; docs/performance.md): the sender
// (this process) and the agent print timing marks (src/trace-marks.ts, bench/lib/undici-marks.mjs)
// on one clock; per send, the marks between the send's start and the request's arrival at a fake
// Anthropic API. Prints each mark's median time since the send's start, then a SUMMARY line of
// intervals that every build with the agent's marks has — run it against two builds, alternating,
// to compare them step by step.
//   MAILROOM_TRACE_MARKS=1 node bench/trace-delivery.mjs <checkout with dist/> [sends=40] [files|redis]
//   AGENT_ARGS='--cpu-prof --cpu-prof-dir=…' passes node options to the agent; SHOW=1 prints its other stderr lines.
//   STRACE=1 also attaches `strace -T` to the agent after its first request (output: $STRACE_OUT, default ./agent.strace).
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
const N = Number(process.argv[3] ?? 40);
const kind = process.argv[4] ?? 'files';
import { fileURLToPath } from 'node:url';
const dir = resolve(process.argv[2] ?? '.');
const lib = await import(join(dir, 'dist/index.js'));
const { startFakeModel } = await import(join(dir, 'bench/lib/agents.mjs'));
const { startRedis } = await import(join(dir, 'bench/lib/redis-server.mjs'));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const now = () => performance.timeOrigin + performance.now();
const marks = [];
const ow = process.stderr.write.bind(process.stderr);
process.stderr.write = (s, ...r) => { const m = /^mailroom-mark (\S+) (\S+)/.exec(String(s)); if (m) { marks.push(['S:' + m[1], Number(m[2])]); return true; } return ow(s, ...r); };
const model = await startFakeModel();
const redis = kind === 'redis' ? await startRedis() : undefined;
const root = await mkdtemp(join(tmpdir(), 'dtrace-'));
const store = redis ? await lib.openStores({ kind: 'redis', url: redis.url, hostRoot: root }) : lib.openFsStores(root);
const where = redis ? ['--store', redis.url, '--root', root] : ['--root', root];
await lib.createTeam({ root: store, team: 'bench' });
await lib.spawnMember({ root: store, team: 'bench', name: 'alice' });
await lib.sendMessage({ root: store, team: 'bench', to: 'alice', text: 'hello' });
const env = { ...model.env, MAILROOM_TRACE_MARKS: '1', NODE_OPTIONS: `--import ${fileURLToPath(new URL('./lib/undici-marks.mjs', import.meta.url))}` };
const child = spawn(process.execPath, [...(process.env.AGENT_ARGS ? process.env.AGENT_ARGS.split(" ") : []), join(dir, "bin/mailroom.js"), 'agent', 'alice', ...where, '--team', 'bench', '--model', 'anthropic:bench', '--poll-ms', '60s'], { stdio: ['ignore', 'pipe', 'pipe'], env });
let buf = '';
child.stderr.on('data', (d) => { buf += d; let i; while ((i = buf.indexOf('\n')) >= 0) { const line = buf.slice(0, i); buf = buf.slice(i + 1); const m = /^mailroom-mark (\S+) (\S+)/.exec(line); if (m) marks.push(["A:" + m[1], Number(m[2])]); else if (process.env.SHOW) ow(line + "\n"); } });
child.stdout.on('data', () => {});
let first = model.nextRequest(); await first;
let st; if (process.env.STRACE) { st = spawn('strace', ['-f', '-tt', '-T', '-e', 'trace=mkdir,rmdir,rename,openat,unlink,link,fsync,fdatasync,write,pwrite64,statx,newfstatat,fchmod,getdents64,inotify_add_watch', '-o', process.env.STRACE_OUT ?? 'agent.strace', '-p', String(child.pid)], { stdio: 'ignore' }); await sleep(1500); }
const rows = [];
for (let i = -5; i < N; i++) {
  await sleep(150);
  marks.length = 0;
  const called = model.nextRequest();
  const t0 = now();
  await lib.sendMessage({ root: store, team: 'bench', to: 'alice', text: `ping ${i}` });
  const t2 = now();
  const t1 = (await called) + performance.timeOrigin;
  await sleep(20);
  if (i < 0) continue;
  const seq = [['send-start', t0], ...marks.filter(([, t]) => t >= t0 && t <= t1 + 0.01), ['S:send-returned', t2], ['arrived', t1]].sort((a, b) => a[1] - b[1]);
  rows.push(seq);
}
st?.kill('SIGINT'); await sleep(200);
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
await store.close?.(); await redis?.stop(); await model.close();
await rm(root, { recursive: true, force: true });
// median time since send start per mark name (first occurrence), and median gap from the previous mark in the typical order
const by = new Map();
for (const seq of rows) { const seen = new Set(); for (const [n, t] of seq) { if (seen.has(n)) continue; seen.add(n); (by.get(n) ?? by.set(n, []).get(n)).push(t - seq[0][1]); } }
const med = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const q = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(s.length * p))]; };
const list = [...by.entries()].map(([n, xs]) => [n, med(xs), q(xs, 0.25), q(xs, 0.75), xs.length]).sort((a, b) => a[1] - b[1]);
ow(`${dir} ${kind} load ${loadavg()[0].toFixed(2)} n=${rows.length}\n`);
let prev = 0;
for (const [n, m, a, b, c] of list) { ow(`${n.padEnd(28)} ${m.toFixed(2).padStart(7)}  (+${(m - prev).toFixed(2)})  p25 ${a.toFixed(2)} p75 ${b.toFixed(2)}  n=${c}\n`); prev = m; }
// per-send intervals between marks both builds have
const iv = (a, b) => rows.map((seq) => { const ta = seq.find(([n]) => n === a)?.[1]; const tb = seq.find(([n]) => n === b)?.[1]; return ta !== undefined && tb !== undefined ? tb - ta : undefined; }).filter((x) => x !== undefined);
const out = [['A:hint-inbox', 'A:take-start'], ['A:take-start', 'A:take-journaled'], ['A:take-journaled', 'A:step-taken'], ['A:step-taken', 'A:model-call'], ['A:model-call', 'arrived'], ['A:hint-inbox', 'A:model-call'], ['A:hint-inbox', 'arrived'], ['send-start', 'arrived']].map(([a, b]) => `${a.replace('A:', '')}→${b.replace('A:', '')} ${iv(a, b).length ? med(iv(a, b)).toFixed(2) : "-"}`);
ow(`SUMMARY ${dir} load ${loadavg()[0].toFixed(1)}: ${out.join(' | ')}\n`);
