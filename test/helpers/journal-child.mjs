// Appends `count` journal events for team `team` under `root`, from its own process, in batches of
// `batch` (one recordObserved call each). Used by the journal concurrency test. Needs `npm run build`.
import { openStores } from '../../dist/index.js';

const [root, team, who, count, batch, pad] = process.argv.slice(2);
const store = (await openStores({ kind: 'fs', root })).team;
const entry = (i) => ({ from: who, text: `${who}-${i} ${'x'.repeat(Number(pad))}`, timestamp: new Date(1_800_000_000_000 + i).toISOString(), read: false });
for (let i = 0; i < Number(count); i += Number(batch)) {
  const events = [];
  for (let j = i; j < Math.min(Number(count), i + Number(batch)); j++) {
    events.push({ v: 2, team, at: new Date().toISOString(), source: 'mailroom', kind: 'message', to: 'team-lead', entry: entry(j) });
  }
  await store.recordObserved(team, events);
}
process.stdout.write('done\n');
