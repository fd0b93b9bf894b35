// `npm run chaos [-- --long] [-- --seconds N] [-- --seed N]`: the chaos suite (issue 21 item 8,
// test/chaos/) alone, on both backends, printing each run's figures (operations, faults injected,
// violations per invariant). The short run is the one `npm test` includes; --long lets the
// nemesis act for 120 s per backend instead of 8 (also part of `npm run bench`). The asserted
// invariants are the ENABLED list in test/chaos/chaos.test.ts; the others are reported.
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const value = (flag) => {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
};
const seconds = value('--seconds') ?? (args.includes('--long') ? '120' : '8');
const env = { ...process.env, MAILROOM_CHAOS_SECONDS: seconds };
if (value('--seed') !== undefined) env.MAILROOM_CHAOS_SEED = value('--seed');
if (args.includes('--verbose')) env.MAILROOM_CHAOS_VERBOSE = '1';
const run = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', 'test/chaos/', '--reporter=verbose', `--testTimeout=${(Number(seconds) * 2 + 180) * 1000}`], { stdio: 'inherit', env });
process.exit(run.status ?? 1);
