// A writer that locks the way Claude Code does — the real proper-lockfile package, lock directory
// `<file>.lock`, stale 2 s (proper-lockfile's minimum), removal of a stale lock without mailroom's
// guard and without cancelling anything — and writes like 2.1.332 (temporary file + rename). For
// the frozen-writer torture (frozen-writer.mjs): it takes over the lock of a paused mailroom
// writer. Writes <count> times, one lock each, printing "ack <i>" after each unlock; after the
// <pause>-th write it prints "paused" and waits for "go" on stdin.
//   node claude-taker.mjs <kind> <file> <count> <pause> <tag>
// kind: inbox (appends entry "<tag>-<i>"), task (sets metadata.<tag>-<i>), config (adds member <tag>-<i>)
import { readFile, rename, writeFile } from 'node:fs/promises';
import lockfile from 'proper-lockfile';

const [kind, file, count, pause, tag] = process.argv.slice(2);
const options = { stale: 2000, realpath: false, lockfilePath: `${file}.lock`, retries: { retries: 400, minTimeout: 5, maxTimeout: 100 } };

function change(value, i) {
  const name = `${tag}-${i}`;
  if (kind === 'inbox') value.push({ from: tag, text: name, timestamp: new Date().toISOString(), read: false, type: 'message', msgV: 1, msg_id: `${name}-${process.pid}` });
  if (kind === 'task') value.metadata = { ...(value.metadata ?? {}), [name]: true };
  if (kind === 'config') value.members.push({ agentId: `${name}@${value.name}`, name, agentType: 'general-purpose', joinedAt: Date.now(), tmuxPaneId: 'in-process', cwd: '/', subscriptions: [] });
  return value;
}

for (let i = 1; i <= Number(count); i++) {
  const release = await lockfile.lock(file, options);
  const value = change(JSON.parse(await readFile(file, 'utf8')), i);
  const tmp = `${file}.tmp-${process.pid}-${i}`;
  await writeFile(tmp, JSON.stringify(value, null, 2));
  await rename(tmp, file);
  await release();
  process.stdout.write(`ack ${i}\n`);
  if (i === Number(pause) && i < Number(count)) {
    process.stdout.write('paused\n');
    await new Promise((resolve) => process.stdin.once('data', resolve));
  }
}
process.exit(0);
