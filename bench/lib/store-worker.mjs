// One writer process for bench/80-redis-store: appends <count> messages to team-lead's inbox of
// team t through a team store, after "go" on stdin, back to back — in <loops> concurrent loops
// (default 1; each awaits one append at a time, as 8 in-process teammates sending at once).
// Prints JSON { ops, cpuUs } (ms per append; CPU time of the appends, µs). The backend is
// `redis <url>`, `fs <root>`, or `floor <url>` (node-redis, one trivial EVALSHA per append).
import { randomUUID } from 'node:crypto';
import { makeInboxEntry } from '../../dist/protocol/inbox.js';
import { openAppender } from './stores.mjs';

const [kind, where, count, tag, loops = '1'] = process.argv.slice(2);
const appender = await openAppender(kind, where);
process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
const ops = [];
const cpu0 = process.cpuUsage();
async function loop(l) {
  for (let i = 0; i < Number(count); i++) {
    const entry = makeInboxEntry({ from: 'a', text: `${tag}-${l}-${i}`, timestamp: new Date().toISOString(), msgId: randomUUID() });
    const start = performance.now();
    await appender.append(entry);
    ops.push(performance.now() - start);
  }
}
await Promise.all(Array.from({ length: Number(loops) }, (_, l) => loop(l)));
const cpu = process.cpuUsage(cpu0);
process.stdout.write(`${JSON.stringify({ ops, cpuUs: cpu.user + cpu.system })}\n`);
await appender.close();
process.exit(0);
