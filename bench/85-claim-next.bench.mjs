// `task claim --next` on the filesystem store against the size of the board: 10 / 1 000 / 10 000
// pending tasks (written in Claude Code's task file format, as a Claude Code lead would), each
// claim interleaved with a claim by id of another task on the same board (the same locked
// read-modify-write of one task file, without choosing). Library calls (`claimNextTask`,
// `claimTask`), so CLI start-up is not in the figure.
import { writeFile, mkdir } from 'node:fs/promises';
import { createTeam, spawnMember, claimNextTask, claimTask, openFsStores } from '../dist/index.js';
import { Layout } from '../dist/internals.js';
import { median } from './lib/stats.mjs';

const SIZES = [10, 1_000, 10_000];

async function board(ctx, size) {
  const root = await ctx.tempRoot();
  const store = openFsStores(root);
  await createTeam({ root: store, team: 'b' });
  await spawnMember({ root: store, team: 'b', name: 'w' });
  const layout = new Layout(root);
  await mkdir(layout.taskDir('b'), { recursive: true });
  for (let i = 1; i <= size; i++) {
    const task = { id: String(i), subject: `task ${i}`, description: '', status: 'pending', blocks: [], blockedBy: [] };
    await writeFile(layout.taskPath('b', String(i)), JSON.stringify(task, null, 2));
  }
  return store;
}

export default async function claimNextBench(ctx) {
  const runs = ctx.quick ? 10 : 30;
  const rows = [];
  for (const size of SIZES) {
    const store = await board(ctx, size);
    const next = [];
    const byId = [];
    const n = Math.min(runs, size - 4); // the last task is the by-id one; --next never reaches it
    for (let i = -2; i < n; i++) {
      const t0 = performance.now();
      const claimed = await claimNextTask({ root: store, team: 'b', as: 'w' });
      const t1 = performance.now();
      if (!claimed) throw new Error(`bench: claim --next found no ready task on a board of ${size}`);
      // The last task of the board, claimed again each time (a re-claim by its owner: a new fencing token).
      await claimTask({ root: store, team: 'b', as: 'w', id: String(size) });
      const t2 = performance.now();
      if (i < 0) continue;
      next.push(t1 - t0);
      byId.push(t2 - t1);
    }
    ctx.log(`claim --next, ${size} tasks: median ${median(next).toFixed(1)} ms; claim by id ${median(byId).toFixed(1)} ms`);
    rows.push({ metric: `\`task claim --next\`, files, ${size.toLocaleString('en')} pending tasks (median of ${n})`, value: median(next), unit: 'ms', baseline: { label: 'claim by id, same board', value: median(byId) }, goal: '≤ 20 ms, flat' });
  }
  return rows;
}
