// Cost of one send (core sendMessage, in process) against the size of the recipient's read
// history (../shared/cases/03): with archiving (the lead's inbox: read history moves to
// <root>/mailroom/archive once the file passes 64 KiB) and without (an in-process teammate's
// inbox in Claude Code's in-process shape, never archived automatically). Baseline: the same send to an empty inbox.
import { sendMessage } from '../dist/core/messages/send.js';
import { openFsStores } from '../dist/store/open.js';
import { median } from './lib/stats.mjs';
import { makeClaudeInProcess, makeTeam, writeHistory } from './lib/setup.mjs';

async function timeSends(root, to, runs) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await sendMessage({ root: openFsStores(root), team: 't', from: 'a', to, text: `probe ${i}` });
    times.push(performance.now() - start);
  }
  return times;
}

async function scenario(ctx, size, to, runs) {
  const root = await ctx.tempRoot();
  await makeTeam(root, ['a', 'b']);
  // b as Claude Code records an in-process teammate: never archived automatically (a member
  // makeTeam registers is one mailroom runs, whose read history IS archived).
  await makeClaudeInProcess(root, 'b');
  if (size > 0) await writeHistory(root, to, size);
  const [first, ...rest] = await timeSends(root, to, runs + 1);
  return { first, steady: median(rest) };
}

export default async function historyBench(ctx) {
  const sizes = ctx.quick ? [0, 1_000, 10_000] : [0, 1_000, 10_000, 100_000];
  const runs = ctx.quick ? 5 : 21;
  const rows = [];
  await scenario(ctx, 1_000, 'team-lead', runs); // warm-up: JIT and file system caches, discarded
  let base;
  for (const size of sizes) {
    const archived = await scenario(ctx, size, 'team-lead', runs);
    const kept = await scenario(ctx, size, 'b', size >= 100_000 ? 3 : runs);
    base ??= { archived: archived.steady, kept: kept.steady };
    ctx.log(`history ${size}: first ${archived.first.toFixed(1)} ms, steady ${archived.steady.toFixed(2)} ms; no archive ${kept.steady.toFixed(1)} ms`);
    const label = `${size.toLocaleString('en-US')} read messages`;
    rows.push({ metric: `Send, ${label} in history, archiving on`, value: archived.steady, unit: 'ms', baseline: { label: 'empty inbox', value: base.archived } });
    if (size > 0) {
      rows.push({ metric: `First send after ${label} (one-time move to archive)`, value: archived.first, unit: 'ms', baseline: { label: 'empty inbox', value: base.archived }, goal: 'no send pays for archiving (issue 24)' });
      rows.push({ metric: `Send, ${label} in history, archiving off (in-process teammate)`, value: kept.steady, unit: 'ms', baseline: { label: 'empty inbox', value: base.kept } });
    }
  }
  return rows;
}
