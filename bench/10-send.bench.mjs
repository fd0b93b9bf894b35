// `mailroom team send` wall time (a fresh CLI process per send) against `node -e 0`, the cost of
// starting Node at all. Runs alternate between the two so drift hits both alike.
import { fileURLToPath } from 'node:url';
import { median, quantile, timeNode } from './lib/stats.mjs';
import { makeTeam } from './lib/setup.mjs';

const BIN = fileURLToPath(new URL('../bin/mailroom.js', import.meta.url));

export default async function sendBench(ctx) {
  const root = await ctx.tempRoot();
  await makeTeam(root, ['a']);
  const runs = ctx.quick ? 10 : 30;
  const send = [];
  const bare = [];
  for (let i = -2; i < runs; i++) {
    const s = await timeNode([BIN, '--root', root, 'team', 'send', 'team-lead', `hello ${i}`, '--from', 'a']);
    const b = await timeNode(['-e', '0']);
    if (i >= 0) {
      send.push(s);
      bare.push(b);
    }
  }
  ctx.log(`team send: median ${median(send).toFixed(1)} ms, p90 ${quantile(send, 0.9).toFixed(1)} ms over ${runs} runs`);
  return [
    { metric: '`mailroom team send`, wall time', note: `median of ${runs}`, value: median(send), unit: 'ms', baseline: { label: '`node -e 0`', value: median(bare) } },
    { metric: '`mailroom team send`, wall time', note: `p90 of ${runs}`, value: quantile(send, 0.9), unit: 'ms', baseline: { label: '`node -e 0` p90', value: quantile(bare, 0.9) } },
  ];
}
