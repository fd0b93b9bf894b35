// What acknowledged hand-out (issue 21 item 1) costs, in-process through the library, each figure
// beside the consume-on-hand-out step it replaced, measured in the same run and alternating rounds
// (so load drift hits both alike), on files and on a redis-server of its own:
//   read_inbox:  one MCP read of 1 message — acknowledge the previous lease + a fenced take under a
//                new lease (consumeUnread on an McpSession) — against one take that marks read in
//                the same step (takeUnread { acknowledge: true }, what read_inbox did before).
//   send → next: from the start of a sendMessage to the read returning it (the next request's
//                messages), same two ways; p50 and p99.
import { createTeam, spawnMember, sendMessage, openFsStores, ReaderLease } from '../dist/index.js';
import { openStores } from '../dist/store/open.js';
import { McpSession } from '../dist/mcp/session.js';
import { consumeUnread } from '../dist/mcp/inbox.js';
import { median, quantile } from './lib/stats.mjs';
import { startRedis } from './lib/redis-server.mjs';

const TEAM = 'handout';

async function timed(fn) {
  const t0 = performance.now();
  const out = await fn();
  return { ms: performance.now() - t0, out };
}

async function measure(store, rounds) {
  await createTeam({ root: store, team: TEAM });
  for (const name of ['acked', 'consumed']) await spawnMember({ root: store, team: TEAM, name });
  const session = new McpSession(store, TEAM, 'acked', () => {}, await ReaderLease.take(store, TEAM, 'acked', 'mcp'));
  const reader = await ReaderLease.take(store, TEAM, 'consumed', 'mcp');
  const r = { read: [], readBase: [], next: [], nextBase: [] };
  try {
    for (let i = 0; i < rounds; i++) {
      await sendMessage({ root: store, team: TEAM, to: 'acked', text: `a${i}` });
      await sendMessage({ root: store, team: TEAM, to: 'consumed', text: `c${i}` });
      r.read.push((await timed(() => consumeUnread(session, 50))).ms);
      r.readBase.push((await timed(() => store.team.takeUnread(TEAM, 'consumed', { reader: reader.token, limit: 50, acknowledge: true }))).ms);
      const a = await timed(async () => {
        await sendMessage({ root: store, team: TEAM, to: 'acked', text: `n${i}` });
        return consumeUnread(session, 50);
      });
      if (a.out.messages.length !== 1) throw new Error(`bench: acked read got ${a.out.messages.length} messages`);
      r.next.push(a.ms);
      const b = await timed(async () => {
        await sendMessage({ root: store, team: TEAM, to: 'consumed', text: `m${i}` });
        return store.team.takeUnread(TEAM, 'consumed', { reader: reader.token, limit: 50, acknowledge: true });
      });
      if (b.out.value.entries.length !== 1) throw new Error('bench: consuming take got no message');
      r.nextBase.push(b.ms);
    }
  } finally {
    await session.close();
    await reader.release();
  }
  return r;
}

function rows(kind, r, rounds) {
  const n = `median of ${rounds}`;
  return [
    { metric: `MCP read_inbox of 1 message: ack previous + fenced take (${kind})`, note: n, value: median(r.read), unit: 'ms', baseline: { label: 'take + mark read in one step (before)', value: median(r.readBase) } },
    { metric: `send → next read returns it, p50 (${kind})`, note: n, value: median(r.next), unit: 'ms', baseline: { label: 'consume on hand-out (before), p50', value: median(r.nextBase) } },
    { metric: `send → next read returns it, p99 (${kind})`, value: quantile(r.next, 0.99), unit: 'ms', baseline: { label: 'consume on hand-out (before), p99', value: quantile(r.nextBase, 0.99) } },
  ];
}

export default async function handOutBench(ctx) {
  const rounds = ctx.quick ? 20 : 200;
  const out = [];
  const fs = await measure(openFsStores(await ctx.tempRoot()), rounds);
  out.push(...rows('files', fs, rounds));
  const server = await startRedis();
  try {
    const stores = await openStores({ kind: 'redis', url: server.url, hostRoot: await ctx.tempRoot() });
    try {
      out.push(...rows('redis', await measure(stores, rounds), rounds));
    } finally {
      await stores.close();
    }
  } finally {
    await server.stop();
  }
  ctx.log(`handout: files read ${median(fs.read).toFixed(2)} ms vs ${median(fs.readBase).toFixed(2)} ms before`);
  return out;
}
