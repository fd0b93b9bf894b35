#!/usr/bin/env node
// The send torture at a larger size than test/torture (run `npm run build` first):
//   node bench/torture.mjs [--senders 16] [--sends 40] [--kill 0.3] [--stale-ms 2000] [--library]
//   node bench/torture.mjs --frozen [--sends 9]   the frozen-writer rounds (issue 9 item 2): one
//     line of figures per round (acknowledged, present, lost, duplicated); exits 1 on any loss
// S senders × M sends through the real CLI to one inbox (with --library: one long-lived library
// process per sender, restarted after each kill), an unlocked reader parsing every file every 5 ms,
// and (with --kill p) each process SIGKILLed with probability p at a random moment.
// --stale-ms sets MAILROOM_LOCK_STALE_MS for the senders (default: Claude Code's 10 s), so a
// killed lock holder stalls the others for that long. Prints the verdict; exits 1 on any loss,
// duplicate, reordering or torn read.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { frozenFigures, runFrozenWriter } from './lib/frozen-writer.mjs';
import { judge, runLibraryTorture, runMailroom, runSendTorture } from './lib/torture.mjs';

const FROZEN_ROUNDS = [
  ...['before-link', 'before-rename', 'after-rename'].map((p) => ({ kind: 'inbox', points: [p], taker: 'mailroom' })),
  { kind: 'inbox', points: ['before-link', 'after-rename'], taker: 'claude' },
  { kind: 'task', points: ['before-link'], taker: 'mailroom' },
  { kind: 'task', points: ['before-link', 'after-rename'], taker: 'claude' },
  { kind: 'config', points: ['before-link'], taker: 'mailroom' },
  { kind: 'config', points: ['before-link', 'after-rename'], taker: 'claude' },
];
import { makeTeam } from './lib/setup.mjs';

const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(`--${name}`) ? Number(args[args.indexOf(`--${name}`) + 1]) : fallback);
const senders = Array.from({ length: opt('senders', 16) }, (_, i) => `s${i + 1}`);
const env = { ...process.env };
if (args.includes('--stale-ms')) env.MAILROOM_LOCK_STALE_MS = String(opt('stale-ms', 10_000));

if (args.includes('--frozen')) {
  // The frozen-writer rounds of test/torture/frozen-writer.test.ts, with more taker writes.
  let bad = 0;
  for (const round of FROZEN_ROUNDS) {
    const dir = await mkdtemp(join(tmpdir(), 'mailroom-frozen-'));
    try {
      await makeTeam(dir, ['a', 'b']);
      await runMailroom(['--root', dir, '--team', 't', 'task', 'add', 'First task']);
      const r = await runFrozenWriter({ root: dir, ...round, takerWrites: opt('sends', 9) });
      process.stdout.write(`${frozenFigures(r)}\n`);
      bad += r.lost.length + r.duplicated.length;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  process.exit(bad > 0 ? 1 : 0);
}

const root = await mkdtemp(join(tmpdir(), 'mailroom-torture-'));
try {
  await makeTeam(root, senders);
  const run = args.includes('--library') ? runLibraryTorture : runSendTorture;
  const result = await run({ root, team: 't', to: 'team-lead', senders, sends: opt('sends', 40), killProbability: opt('kill', 0), maxKillDelayMs: 300, env });
  const verdict = judge(result);
  process.stdout.write(`${JSON.stringify({ senders: senders.length, sends: result.sends.length, elapsedS: +(result.elapsedMs / 1000).toFixed(1), ...verdict }, null, 2)}\n`);
  const bad = verdict.lost.length + verdict.duplicated.length + verdict.outOfOrder.length + verdict.tornReads + verdict.failed.length;
  process.exitCode = bad > 0 ? 1 : 0;
} finally {
  await rm(root, { recursive: true, force: true });
}
