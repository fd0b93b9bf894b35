// A task holder for fencing fault tests (uses dist/: run `npm run build` first): claims task `id`
// of `team` on a Redis store as `member`, prints "token <n>", then waits for a line on stdin (the
// test freezes it meanwhile with SIGSTOP, and thaws it with SIGCONT) and makes its fenced write
// — metadata {exitCode: 1} with that token, as a runtime's RunTaskCommand result — and prints
// "written" or "refused <code>" (its message on stderr), retrying while the store is unavailable.
//   node fenced-holder.mjs <url> <team> <member> <id>
import { openRedisTeamStore } from '../../dist/store/redis/index.js';

const [url, team, member, id] = process.argv.slice(2);
const store = await openRedisTeamStore({ kind: 'redis', url, hostRoot: '/nonexistent' });
const token = (await store.claimTask(team, { claimant: member, id }, { actor: member })).value.fencingToken;
process.stdout.write(`token ${token}\n`);
await new Promise((resolve) => process.stdin.once('data', resolve));
process.stdin.destroy();
// A store unreachable for a moment (its connection died with the server) is retried, as a runtime's write is.
for (let attempt = 1; ; attempt++) {
  try {
    await store.patchTask(team, id, { metadata: { exitCode: 1 }, fencingToken: token }, { actor: member });
    process.stdout.write('written\n');
    break;
  } catch (e) {
    if (e.code === 'STORE_UNAVAILABLE' && attempt < 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    process.stdout.write(`refused ${e.code}\n`);
    process.stderr.write(`${e.message}\n`);
    break;
  }
}
await store.close();
