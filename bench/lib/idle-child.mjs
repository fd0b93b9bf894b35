// One process for bench/60-idle: with <teammates> = "bare" a plain idle node process (mailroom not
// loaded); otherwise an InProcessHost over <root>/team "idle" running that many registered
// teammates (the worker model; no messages, no tasks) with safety-net poll <pollMs>. Prints "ready"
// once every teammate is idle and <settleMs> have passed; on "go <windowMs>" on stdin it measures
// its own CPU time over the window, then RSS after a GC, and prints JSON { cpuMs, elapsedMs, rss }.
// The settle time should pass V8's memory reducer: some seconds after the heap stops growing it
// runs one round of major GCs (tens of ms of CPU), which would otherwise land in the window of some
// processes and not others. Run with --expose-gc.
// <root> may be a redis:// URL: the team is then in Redis (bench/81-redis-runtime), this machine's
// records in a temporary directory.
// Usage: node --expose-gc idle-child.mjs <root|redis-url> <teammates|bare> <pollMs> <settleMs>
const [root, teammates, pollMs = '2000', settleMs = '1000'] = process.argv.slice(2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let host;
if (teammates !== 'bare') {
  const { createWorkerModel, InProcessHost, openFsStores, openStores } = await import('../../dist/index.js');
  const { tmpdir } = await import('node:os');
  const store = root.startsWith('redis://') ? await openStores({ kind: 'redis', url: root, hostRoot: tmpdir() }) : openFsStores(root);
  host = await InProcessHost.open({ root: store, team: 'idle', pollMs: Number(pollMs) });
  const running = Array.from({ length: Number(teammates) }, (_, i) => host.add(`t${i}`, createWorkerModel()));
  const deadline = Date.now() + 60_000;
  while (running.some((t) => t.state !== 'idle')) {
    if (Date.now() > deadline) throw new Error('idle-child: teammates did not go idle within 60 s');
    await sleep(20);
  }
}
await sleep(Number(settleMs)); // idle notifications written, watch events handled, memory reducer done
process.stdout.write('ready\n');

const line = await new Promise((resolve) => process.stdin.once('data', (d) => resolve(String(d))));
const windowMs = Number(line.split(' ')[1]);
const cpu0 = process.cpuUsage();
const t0 = performance.now();
await sleep(windowMs);
const cpu = process.cpuUsage(cpu0);
const elapsedMs = performance.now() - t0;
global.gc?.();
const rss = process.memoryUsage().rss;
process.stdout.write(`${JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000, elapsedMs, rss })}\n`);
await host?.close();
process.exit(0);
