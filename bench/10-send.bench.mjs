// CLI start-up: wall time of `mailroom team send`, `mailroom inbox` and `mailroom task list` (a
// fresh CLI process each) against `node -e 0`, the cost of starting Node at all. Runs alternate
// between the command and the baseline so drift hits both alike. The CLI runs from its compile
// cache (src/cli/launch.ts), in a cache directory of this run, warmed by the first runs; one row is
// `team send` with the cache off, as on the very first run after an install; one is `team send` of
// an installed copy (bin/, the bundles, the launcher and package.json copied to another directory,
// as `npm install` lays them out; a send needs nothing from node_modules).
import { cp, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, quantile, timeNode } from './lib/stats.mjs';
import { makeTeam } from './lib/setup.mjs';

const BIN = fileURLToPath(new URL('../bin/mailroom.js', import.meta.url));
const REPO = fileURLToPath(new URL('..', import.meta.url));

/** A copy of the built CLI at `dir` (as installed); returns its bin/mailroom.js. */
async function installCopy(dir) {
  await mkdir(join(dir, 'dist', 'cli'), { recursive: true });
  await cp(join(REPO, 'bin'), join(dir, 'bin'), { recursive: true });
  for (const f of (await readdir(join(REPO, 'dist'))).filter((f) => /^mailroom.*\.cjs$/.test(f))) await cp(join(REPO, 'dist', f), join(dir, 'dist', f));
  for (const f of ['launch.cjs', 'command-words.cjs']) await cp(join(REPO, 'dist', 'cli', f), join(dir, 'dist', 'cli', f));
  await cp(join(REPO, 'package.json'), join(dir, 'package.json'));
  return join(dir, 'bin', 'mailroom.js');
}

/** Alternates `args` (a CLI run) with `node -e 0`; returns both series (after 2 warm-up rounds). */
async function alternate(runs, args, env, bin = BIN) {
  const cli = [];
  const bare = [];
  for (let i = -2; i < runs; i++) {
    const c = await timeNode([bin, ...args(i)], env);
    const b = await timeNode(['-e', '0']);
    if (i >= 0) {
      cli.push(c);
      bare.push(b);
    }
  }
  return { cli, bare };
}

export default async function sendBench(ctx) {
  const root = await ctx.tempRoot();
  await makeTeam(root, ['a']);
  const runs = ctx.quick ? 10 : 30;
  const env = { ...process.env, MAILROOM_COMPILE_CACHE: join(await ctx.tempRoot(), 'cache') };
  const off = { ...process.env, MAILROOM_COMPILE_CACHE: 'off' };
  const send = await alternate(runs, (i) => ['--root', root, 'team', 'send', 'team-lead', `hello ${i}`, '--as', 'a'], env);
  const inbox = await alternate(runs, () => ['--root', root, 'inbox', 'a'], env);
  const tasks = await alternate(runs, () => ['--root', root, 'task', 'list'], env);
  const cold = await alternate(runs, (i) => ['--root', root, 'team', 'send', 'team-lead', `cold ${i}`, '--as', 'a'], off);
  const installedBin = await installCopy(join(await ctx.tempRoot(), 'installed'));
  const installed = await alternate(runs, (i) => ['--root', root, 'team', 'send', 'team-lead', `installed ${i}`, '--as', 'a'], env, installedBin);
  ctx.log(`team send: median ${median(send.cli).toFixed(1)} ms (node -e 0 ${median(send.bare).toFixed(1)}), p90 ${quantile(send.cli, 0.9).toFixed(1)} ms over ${runs} runs; without the compile cache ${median(cold.cli).toFixed(1)} ms`);
  const bare = (series, label = '`node -e 0`') => ({ label, value: median(series.bare) });
  return [
    { metric: '`mailroom team send`, files, wall time (this checkout, from its own bundle and compile cache)', note: `median of ${runs}`, value: median(send.cli), unit: 'ms', baseline: bare(send), goal: '≤ 1.5×' },
    { metric: '`mailroom team send`, files, wall time (an installed copy, from its own bundle and compile cache)', note: `median of ${runs}`, value: median(installed.cli), unit: 'ms', baseline: bare(installed), goal: '≤ 1.5×' },
    { metric: '`mailroom team send`, wall time', note: `p90 of ${runs}`, value: quantile(send.cli, 0.9), unit: 'ms', baseline: { label: '`node -e 0` p90', value: quantile(send.bare, 0.9) } },
    { metric: '`mailroom inbox`, wall time', note: `median of ${runs}`, value: median(inbox.cli), unit: 'ms', baseline: bare(inbox) },
    { metric: '`mailroom task list`, wall time', note: `median of ${runs}`, value: median(tasks.cli), unit: 'ms', baseline: bare(tasks) },
    { metric: '`mailroom team send`, no compile cache (first run after install)', note: `median of ${runs}`, value: median(cold.cli), unit: 'ms', baseline: bare(cold) },
  ];
}
