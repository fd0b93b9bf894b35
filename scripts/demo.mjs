#!/usr/bin/env node
// `npm run demo`: the offline demo team. Three worker teammates run a DAG of six real shell tasks
// (fixtures/demo/team.yaml over fixtures/demo/sales.csv) in a fresh temporary store, shut down
// through the handshake, and `mailroom run` prints who did what, the timings and the files to cat.
// Extra arguments go to `mailroom run`, e.g. `npm run demo -- --model anthropic:claude-sonnet-4-5`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
if (!existsSync(join(repo, 'dist', 'cli', 'main.js'))) {
  // `npm ci` does not build (the build runs on `npm pack`, so installing a tarball runs no script).
  console.log('demo: building the CLI first (npm run build)');
  const built = spawnSync('npm', ['run', 'build'], { cwd: repo, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const root = mkdtempSync(join(tmpdir(), 'mailroom-demo-'));
const workdir = join(root, 'work');
const args = [join(repo, 'bin', 'mailroom.js'), 'run', join(repo, 'fixtures', 'demo', 'team.yaml'), '--root', root, '--workdir', workdir, ...process.argv.slice(2)];
console.log(`demo: store ${root}, work directory ${workdir}\n`);
const run = spawnSync(process.execPath, args, { stdio: 'inherit' });
if (run.status === 0) {
  console.log(`\nLook around: node bin/mailroom.js task list --root ${root} --team demo`);
  console.log(`             node bin/mailroom.js inbox --root ${root} --team demo`);
}
process.exit(run.status ?? 1);
