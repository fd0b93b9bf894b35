#!/usr/bin/env node
// `npm run demo`: the offline demo team. Three worker teammates run a DAG of six real shell tasks
// (fixtures/demo/team.yaml over fixtures/demo/sales.csv) in a fresh temporary store, shut down
// through the handshake, and `mailroom run` prints who did what, the timings and the files to cat.
// The temporary root (store and work directory) is removed at the end unless `--keep` is given (or
// MAILROOM_DEMO_KEEP=1 is set); a run that fails or is interrupted keeps it, and says where, to be
// inspected. Other arguments go to `mailroom run`, e.g. `npm run demo -- --model anthropic:claude-sonnet-4-5`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const given = process.argv.slice(2);
const keepEnv = process.env.MAILROOM_DEMO_KEEP;
const keep = given.includes('--keep') || (keepEnv !== undefined && keepEnv !== '' && keepEnv !== '0');
const runArgs = given.filter((a) => a !== '--keep');
if (!existsSync(join(repo, 'dist', 'cli', 'main.js'))) {
  // `npm ci` does not build (the build runs on `npm pack`, so installing a tarball runs no script).
  console.log('demo: building the CLI first (npm run build)');
  const built = spawnSync('npm', ['run', 'build'], { cwd: repo, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const root = mkdtempSync(join(tmpdir(), 'mailroom-demo-'));
const workdir = join(root, 'work');
const args = [join(repo, 'bin', 'mailroom.js'), 'run', join(repo, 'fixtures', 'demo', 'team.yaml'), '--root', root, '--workdir', workdir, ...runArgs];
const fate = keep ? 'kept at the end (--keep)' : 'removed at the end; `npm run demo -- --keep` (or MAILROOM_DEMO_KEEP=1) keeps it';
console.log(`demo: store ${root}, work directory ${workdir} (${fate})\n`);
// Ctrl-C reaches `mailroom run` too, which shuts the team down and exits; this script then reports
// where the root is instead of dying with it half-removed.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => undefined);
const run = spawnSync(process.execPath, args, { stdio: 'inherit' });
const cli = `node bin/mailroom.js`;
if (run.status !== 0) {
  const how = run.error ? `could not run (${run.error.message})` : run.signal ? `was stopped by ${run.signal}` : `failed (exit ${run.status})`;
  console.log(`\ndemo: the run ${how}; its store and work directory are kept for you to inspect: ${root}`);
  console.log(`      ${cli} log --root ${root} --team demo     (remove it with: rm -rf ${root})`);
  process.exit(run.status ?? 1);
}
if (keep) {
  console.log(`\nLook around: ${cli} task list --root ${root} --team demo`);
  console.log(`             ${cli} inbox --root ${root} --team demo`);
  console.log(`demo: kept ${root} (remove it with: rm -rf ${root})`);
} else {
  rmSync(root, { recursive: true, force: true });
  console.log(`\ndemo: removed ${root} (store and work directory, with the files above). To keep them and look around, run \`npm run demo -- --keep\` or set MAILROOM_DEMO_KEEP=1.`);
}
