// A child process working on a Redis team store, for fault and torture tests (uses dist/: run
// `npm run build` first, as `npm test` does). Prints one line per acknowledged operation, so the
// parent knows what was acknowledged when it SIGKILLs the child.
//   node redis-child.mjs <url> <team> append <writer> <from> <to> [batch]
//     appends "<writer>-<n>" for n in [from, to] to team-lead's inbox, `batch` entries per call
//     (default 1), idempotency key "<writer>-<first n>"; prints "ack <n>" for each n.
//   node redis-child.mjs <url> <team> claim <member> [wait]
//     claims the next ready task until none is left; prints "claim <id>", then "done". With
//     `wait`, prints "ready" once connected and starts at the first line on stdin (a fair race).
//   node redis-child.mjs <url> <team> mixed <writer> <rounds>
//     per round, one batch of 4 messages to four inboxes and one task linked to the previous one.
import { openRedisTeamStore } from '../../dist/store/redis/index.js';

const [url, team, mode, who, a, b, c] = process.argv.slice(2);
const store = await openRedisTeamStore({ kind: 'redis', url, hostRoot: '/nonexistent' });
const entry = (text, n) => ({ from: who, text, timestamp: new Date(1_800_000_000_000 + n).toISOString(), read: false, type: 'message', msgV: 1, msg_id: text });
const say = (line) => process.stdout.write(`${line}\n`);

if (mode === 'append') {
  const batch = Number(c ?? 1);
  for (let n = Number(a); n <= Number(b); n += batch) {
    const ns = Array.from({ length: Math.min(batch, Number(b) - n + 1) }, (_, i) => n + i);
    await store.appendMessages(team, ns.map((k) => ({ to: 'team-lead', entry: entry(`${who}-${k}`, k) })), { idempotencyKey: `${who}-${n}` });
    for (const k of ns) say(`ack ${k}`);
  }
} else if (mode === 'claim') {
  if (a === 'wait') {
    say('ready');
    await new Promise((resolve) => process.stdin.once('data', resolve));
    process.stdin.destroy();
  }
  for (;;) {
    const claimed = (await store.claimTask(team, { claimant: who })).value;
    if (!claimed) break;
    say(`claim ${claimed.id}`);
  }
  say('done');
} else if (mode === 'mixed') {
  let previous;
  for (let r = 0; r < Number(a); r++) {
    const to = ['team-lead', 'w1', 'w2', 'w3'];
    await store.appendMessages(team, to.map((t) => ({ to: t, entry: entry(`${who}-r${r}-${t}`, r) })));
    const task = (await store.createTask(team, { subject: `${who}-${r}`, description: '', blockedBy: previous ? [previous] : [] })).value.task;
    previous = task.id;
    say(`round ${r}`);
  }
}
await store.close();
