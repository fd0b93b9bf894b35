// One writer process for bench/20-writers: appends <count> messages to <agent>'s inbox in <root>
// through the store's appendMessages transition (dist/: recipient check, append, journal line), after "go" on stdin, back to back or with random gaps (exponential,
// mean <gapMs>). Prints JSON { waits, holds } in ms: waits = time spent waiting for the inbox
// lock, holds = whole append (wait + read + write).
import { randomUUID } from 'node:crypto';
import { openFsStores } from '../../dist/store/open.js';
import { makeInboxEntry } from '../../dist/protocol/inbox.js';

const [root, agent, count, tag, gap = '0'] = process.argv.slice(2);
const waits = [];
const holds = [];
const store = openFsStores(root, { lock: { onAcquired: (i) => waits.push(i.waitMs) } }).team;
process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
for (let i = 0; i < Number(count); i++) {
  const entry = makeInboxEntry({ from: 'a', text: `${tag}-${i}`, timestamp: new Date().toISOString(), msgId: randomUUID() });
  const start = performance.now();
  await store.appendMessages('t', [{ to: agent, entry }]);
  holds.push(performance.now() - start);
  if (Number(gap) > 0) await new Promise((r) => setTimeout(r, -Math.log(1 - Math.random()) * Number(gap)));
}
process.stdout.write(`${JSON.stringify({ waits, holds })}\n`);
process.exit(0);
