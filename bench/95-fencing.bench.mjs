// What fencing tokens cost (issue 21 item 2), on both backends in the same run: a claim (which now
// issues the task's next token: one more key in the task file, one HINCRBY in claim-task.lua)
// beside an unfenced owner+status patch of the same task (the same work without the claim rules),
// and a fenced task update (metadata, carrying the owner's token: the store checks owner and token
// in the same step) beside the same update unfenced. Runs alternate, so drift hits both alike.
import { openStores } from '../dist/store/open.js';
import { openRedisTeamStore } from '../dist/store/redis/index.js';
import { median, quantile } from './lib/stats.mjs';
import { startRedis } from './lib/redis-server.mjs';
import { setUp } from './lib/stores.mjs';

async function teamStore(kind, where) {
  if (kind === 'redis') return openRedisTeamStore({ kind: 'redis', url: where, hostRoot: '/nonexistent' });
  return (await openStores({ kind: 'fs', root: where })).team;
}

async function time(fn) {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

async function measure(kind, where, runs) {
  await setUp(kind, where);
  const store = await teamStore(kind, where);
  const claim = [];
  const plain = [];
  const fenced = [];
  const unfenced = [];
  try {
    for (let i = -3; i < runs; i++) {
      const a = (await store.createTask('t', { subject: `claim ${i}`, description: '' })).value.task.id;
      const b = (await store.createTask('t', { subject: `patch ${i}`, description: '' })).value.task.id;
      const c = await time(() => store.claimTask('t', { claimant: 'a', id: a }, { actor: 'a' }));
      const p = await time(() => store.patchTask('t', b, { owner: 'a', status: 'in_progress' }, { actor: 'team-lead' }));
      const token = (await store.readTask('t', a)).fencingToken;
      const f = await time(() => store.patchTask('t', a, { metadata: { exitCode: 0, i }, fencingToken: token }, { actor: 'a' }));
      const u = await time(() => store.patchTask('t', a, { metadata: { exitCode: 1, i } }, { actor: 'a' }));
      if (i >= 0) {
        claim.push(c);
        plain.push(p);
        fenced.push(f);
        unfenced.push(u);
      }
    }
  } finally {
    await store.close();
  }
  return { claim, plain, fenced, unfenced };
}

export default async function fencingBench(ctx) {
  const runs = ctx.quick ? 30 : 200;
  const redis = await startRedis();
  const rows = [];
  try {
    for (const [kind, where, label] of [['fs', await ctx.tempRoot(), 'files'], ['redis', redis.url, 'Redis']]) {
      const r = await measure(kind, where, runs);
      ctx.log(`${label}: claim p50 ${median(r.claim).toFixed(2)} ms (owner+status patch ${median(r.plain).toFixed(2)}); fenced update p50 ${median(r.fenced).toFixed(2)} ms (unfenced ${median(r.unfenced).toFixed(2)})`);
      for (const q of [0.5, 0.99]) {
        const note = `${q === 0.5 ? 'p50' : 'p99'} of ${runs}`;
        rows.push({ metric: `${label}: claimTask (issues a fencing token)`, note, value: quantile(r.claim, q), unit: 'ms', baseline: { label: 'patchTask owner+status, same run', value: quantile(r.plain, q) } });
        rows.push({ metric: `${label}: patchTask metadata, fenced (owner's token checked)`, note, value: quantile(r.fenced, q), unit: 'ms', baseline: { label: 'the same update unfenced, same run', value: quantile(r.unfenced, q) } });
      }
    }
  } finally {
    await redis.stop();
  }
  return rows;
}
