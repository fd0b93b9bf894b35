// A long-lived sender for torture runs: sends "<from>-<n>" for n = <start> … <end> to <to> through
// the library (dist/core sendMessage), printing "ack <n>" after each send resolved.
// A send refused LOCK_COMPROMISED ("Nothing was written; retry": this process was starved past the
// lock's stale time — the torture's short one, 2 s, on a loaded machine) is sent again, as its error
// says, up to five times; the judge's lost/duplicated checks see whether the refused tries wrote.
// Usage: node sender-child.mjs <root> <team> <from> <to> <start> <end>
import { sendMessage } from '../../dist/core/messages/send.js';
import { openFsStores } from '../../dist/store/open.js';

const [root, team, from, to, start, end] = process.argv.slice(2);
for (let n = Number(start); n <= Number(end); n++) {
  for (let attempt = 1; ; attempt++) {
    try {
      await sendMessage({ root: openFsStores(root), team, from, to, text: `${from}-${n}` });
      break;
    } catch (err) {
      if (err?.code !== 'LOCK_COMPROMISED' || attempt === 5) throw err;
      process.stderr.write(`sender-child: ${from}-${n} refused LOCK_COMPROMISED, sending again\n`);
    }
  }
  process.stdout.write(`ack ${n}\n`);
}
process.exit(0);
