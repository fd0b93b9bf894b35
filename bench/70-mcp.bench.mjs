// `mailroom mcp` over stdio, with the official MCP client, each figure beside the same work done
// in-process through the library in the same run (alternating, so load drift hits both alike):
//   start:  spawn `mailroom mcp` + join the team + MCP initialize (its first response on stdio),
//           against `node -e 0`; the CLI from its compile cache, warmed by one unmeasured start
//   calls:  list_members and send_message round trips, against showTeam / sendMessage in-process
//   wake:   wait_for_message is pending; from the start of a sendMessage to its result arriving,
//           against the same wait in-process (waitForUnread on an McpSession, no transport) and a
//           plain fs.watch event for the inbox file on the same sends (when the file changed at all).
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createTeam, spawnMember, sendMessage, showTeam, openFsStores, ReaderLease } from '../dist/index.js';
import { Layout } from '../dist/internals.js';
import { McpSession } from '../dist/mcp/session.js';
import { waitForUnread } from '../dist/mcp/inbox.js';
import { median, quantile, timeNode } from './lib/stats.mjs';
import { probeFile, sleep, within } from './lib/probe.mjs';

const BIN = fileURLToPath(new URL('../bin/mailroom.js', import.meta.url));
const TEAM = 'bench';

/** The CLI's compile cache for this run (src/cli/launch.ts); warmed by an unmeasured first start. */
let cacheDir;

async function connect(root, as) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', root, '--team', TEAM, '--as', as], stderr: 'pipe', env: { ...process.env, MAILROOM_COMPILE_CACHE: cacheDir } });
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(transport);
  return client;
}

async function timed(fn) {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** From the start of a send to `waiting` resolving with it, and to the fs.watch event for the file. */
async function wake(store, to, text, waiting, probe) {
  await sleep(150); // the wait is armed
  const seen = probe.next();
  const t0 = performance.now();
  await sendMessage({ root: store, team: TEAM, to, text });
  const got = await within(waiting, 10_000, `the wake of ${to}`);
  const t1 = performance.now();
  if (got?.[0]?.text !== text) throw new Error(`bench: ${to} woke with ${JSON.stringify(got)}, not "${text}"`);
  return { ms: t1 - t0, watchMs: (await seen) - t0 };
}

export default async function mcpBench(ctx) {
  const rounds = ctx.quick ? 5 : 30;
  const root = await ctx.tempRoot();
  const store = openFsStores(root);
  await createTeam({ root: store, team: TEAM });
  await spawnMember({ root: store, team: TEAM, name: 'local' });
  cacheDir = `${await ctx.tempRoot()}/cache`;
  await (await connect(root, 'warm-up')).close();
  const start = [];
  const node = [];
  for (let i = 0; i < (ctx.quick ? 3 : 8); i++) {
    const t0 = performance.now();
    const c = await connect(root, `agent-${i}`);
    start.push(performance.now() - t0);
    await c.close(); // not timed: ending the server is not part of starting it
    node.push(await timeNode(['-e', '0']));
  }
  const client = await connect(root, 'codex');
  const r = { list: [], show: [], send: [], lib: [], wake: [], inproc: [], watch: [] };
  for (let i = 0; i < rounds; i++) {
    r.list.push(await timed(() => client.callTool({ name: 'list_members', arguments: {} })));
    r.show.push(await timed(() => showTeam({ root: store, team: TEAM })));
    r.send.push(await timed(() => client.callTool({ name: 'send_message', arguments: { to: 'team-lead', text: `m${i}` } })));
    r.lib.push(await timed(() => sendMessage({ root: store, team: TEAM, from: 'codex', to: 'team-lead', text: `l${i}` })));
  }
  await client.callTool({ name: 'wait_for_message', arguments: { timeout_ms: 1 } });
  const session = new McpSession(store, TEAM, 'local', () => {}, await ReaderLease.take(store, TEAM, 'local', 'mcp'));
  const probe = probeFile(dirname(new Layout(root).inboxPath(TEAM, 'codex')), 'codex.json');
  const probeLocal = probeFile(dirname(new Layout(root).inboxPath(TEAM, 'local')), 'local.json');
  try {
    for (let i = 0; i < rounds; i++) {
      const viaMcp = client.callTool({ name: 'wait_for_message', arguments: { timeout_ms: 10_000 } }).then((res) => res.structuredContent?.messages);
      const w = await wake(store, 'codex', `wake ${i}`, viaMcp, probe);
      r.wake.push(w.ms);
      r.watch.push(w.watchMs);
      const local = waitForUnread(session, 10_000, 50).then((res) => res.messages);
      const wl = await wake(store, 'local', `local ${i}`, local, probeLocal);
      r.inproc.push(wl.ms);
      if (process.env.BENCH_DEBUG) ctx.log(`round ${i}: mcp ${w.ms.toFixed(1)} (watch ${w.watchMs.toFixed(1)}), in-process ${wl.ms.toFixed(1)} (watch ${wl.watchMs.toFixed(1)})`);
    }
  } finally {
    probe.close();
    probeLocal.close();
    await session.close();
    await client.close();
  }
  ctx.log(`mcp: start ${median(start).toFixed(0)} ms, list ${median(r.list).toFixed(1)} ms, send ${median(r.send).toFixed(1)} ms, wake ${median(r.wake).toFixed(1)} ms (p90 ${quantile(r.wake, 0.9).toFixed(1)})`);
  const n = `median of ${rounds}`;
  return [
    { metric: '`mailroom mcp` start (spawn + join + initialize)', note: `median of ${start.length}`, value: median(start), unit: 'ms', baseline: { label: '`node -e 0`', value: median(node) } },
    { metric: 'MCP `list_members` round trip', note: n, value: median(r.list), unit: 'ms', baseline: { label: '`showTeam` in-process', value: median(r.show) } },
    { metric: 'MCP `send_message` round trip', note: n, value: median(r.send), unit: 'ms', baseline: { label: '`sendMessage` in-process', value: median(r.lib) } },
    { metric: 'MCP `wait_for_message` wake: send start → result', note: n, value: median(r.wake), unit: 'ms', baseline: { label: 'same wait in-process (`waitForUnread`)', value: median(r.inproc) } },
    { metric: 'MCP `wait_for_message` wake, p90', value: quantile(r.wake, 0.9), unit: 'ms', baseline: { label: 'same wait in-process, p90', value: quantile(r.inproc, 0.9) } },
    { metric: 'MCP `wait_for_message` wake', note: n, value: median(r.wake), unit: 'ms', baseline: { label: 'plain `fs.watch` event for the inbox file, same sends', value: median(r.watch) } },
  ];
}
