// Holds `count` reader claims of team "p" in `root`, beating every `beatMs` (presence on: 5000;
// off: a beat never comes within the window). Prints "ready", waits for "go <windowMs>" on stdin,
// then prints {cpuMs, elapsedMs} for the window and exits.
import { ReaderLease, openFsStores } from '../../dist/index.js';

const [root, count, beatMs] = process.argv.slice(2);
const leases = [];
for (let i = 0; i < Number(count); i++) leases.push(await ReaderLease.take(openFsStores(root), 'p', `t${i}`, 'in-process', { beatMs: Number(beatMs), ttlMs: Math.max(15_000, 3 * Number(beatMs)) }));
const hold = setInterval(() => undefined, 1 << 30);
process.stdout.write('ready\n');
process.stdin.once('data', async (d) => {
  const windowMs = Number(String(d).trim().split(' ')[1]);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, windowMs));
  const cpu = process.cpuUsage(cpu0);
  const elapsedMs = performance.now() - t0;
  for (const l of leases) await l.release();
  clearInterval(hold);
  process.stdout.write(`${JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000, elapsedMs })}\n`);
  process.exit(0);
});
