// One writer process for bench/80-redis-store: appends messages to team-lead's inbox of team t,
// in <loops> concurrent loops (default 1; each awaits one append at a time, as 8 in-process
// teammates sending at once). It stays up for several rounds, so rounds of different writers can
// be interleaved: each "go <count>" line on stdin runs one round of <count> appends per loop, back
// to back, and prints one JSON line { ops, cpuUs } (ms per append; CPU time of the round, µs);
// stdin's end closes it. `kind` is `redis`, `fs`, `floor` or `trivial` (bench/lib/stores.mjs);
// `dist`, when given, is the URL of another build's dist/ for `redis` (an A/B against it).
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { makeInboxEntry } from '../../dist/protocol/inbox.js';
import { openAppender } from './stores.mjs';

const [kind, where, tag, loops = '1', dist] = process.argv.slice(2);
const appender = await openAppender(kind, where, dist ? new URL(dist) : undefined);
let round = 0;

async function runRound(count) {
  const ops = [];
  const r = round++;
  async function loop(l) {
    for (let i = 0; i < count; i++) {
      const entry = makeInboxEntry({ from: 'a', text: `${tag}-${r}-${l}-${i}`, timestamp: new Date().toISOString(), msgId: randomUUID() });
      const start = performance.now();
      await appender.append(entry);
      ops.push(performance.now() - start);
    }
  }
  const cpu0 = process.cpuUsage();
  await Promise.all(Array.from({ length: Number(loops) }, (_, l) => loop(l)));
  const cpu = process.cpuUsage(cpu0);
  return { ops, cpuUs: cpu.user + cpu.system };
}

process.stdout.write('ready\n');
for await (const line of createInterface({ input: process.stdin })) {
  const [verb, count] = line.split(' ');
  if (verb !== 'go') continue;
  process.stdout.write(`${JSON.stringify(await runRound(Number(count)))}\n`);
}
await appender.close();
process.exit(0);
