// Runs inside a private mount namespace (`unshare -rm`) on a tiny real tmpfs mounted at <dir>:
// creates a team there, fills the file system up, then runs `mailroom team send` and prints one
// JSON line: { code, stderr, inboxBefore, inboxAfter, leftovers } (leftovers: names of temporary
// or keep files beside the inbox). Used by test/unit/store/disk-full.test.ts.
//   node disk-full-child.mjs <dir>
import { spawnSync } from 'node:child_process';
import { open, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [dir] = process.argv.slice(2);
const bin = fileURLToPath(new URL('../../bin/mailroom.js', import.meta.url));
const cli = (...args) => spawnSync(process.execPath, [bin, '--root', dir, ...args], { encoding: 'utf8' });
const must = (run) => {
  if (run.status !== 0) throw new Error(`setup failed: ${run.stderr}`);
};
must(cli('team', 'create', 't'));
must(cli('--team', 't', 'team', 'spawn', 'a'));
must(cli('--team', 't', 'team', 'send', 'team-lead', 'before', '--from', 'a'));
const inbox = join(dir, 'teams', 't', 'inboxes', 'team-lead.json');
const inboxBefore = await readFile(inbox, 'utf8');

const filler = await open(join(dir, 'filler'), 'w');
const chunk = Buffer.alloc(4096, 120);
try {
  for (;;) await filler.write(chunk);
} catch (err) {
  if (err.code !== 'ENOSPC') throw err;
} finally {
  await filler.close();
}
const send = cli('--team', 't', 'team', 'send', 'team-lead', 'x'.repeat(20_000), '--from', 'a');
const leftovers = (await readdir(join(dir, 'teams', 't', 'inboxes'))).filter((n) => n !== 'team-lead.json');
process.stdout.write(`${JSON.stringify({ code: send.status, stderr: send.stderr, inboxBefore, inboxAfter: await readFile(inbox, 'utf8'), leftovers })}\n`);
