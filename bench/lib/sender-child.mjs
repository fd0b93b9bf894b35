// A long-lived sender for torture runs: sends "<from>-<n>" for n = <start> … <end> to <to> through
// the library (dist/core sendMessage), printing "ack <n>" after each send resolved.
// Usage: node sender-child.mjs <root> <team> <from> <to> <start> <end>
import { sendMessage } from '../../dist/core/messages/send.js';
import { openFsStores } from '../../dist/store/open.js';

const [root, team, from, to, start, end] = process.argv.slice(2);
for (let n = Number(start); n <= Number(end); n++) {
  await sendMessage({ root: openFsStores(root), team, from, to, text: `${from}-${n}` });
  process.stdout.write(`ack ${n}\n`);
}
process.exit(0);
