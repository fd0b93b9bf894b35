// Benchmark of `mailroom mcp` (run `npm run build` first): prints figures, asserts nothing.
//   node bench/mcp.mjs [rounds]
// 1. start: spawn `node bin/mailroom.js mcp` + join + MCP initialize, until the client is connected
// 2. call: round trip of a cheap tool (list_members) and of send_message
// 3. wake: a message is appended while wait_for_message waits; time from the append resolving to
//    the tool result arriving (the watch-driven path, no polling)
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createTeam, sendMessage } from '../dist/index.js';

const ROUNDS = Number(process.argv[2] ?? 20);
const BIN = fileURLToPath(new URL('../bin/mailroom.js', import.meta.url));

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return `median ${at(0.5).toFixed(1)} ms, p90 ${at(0.9).toFixed(1)} ms, max ${s.at(-1).toFixed(1)} ms (n=${s.length})`;
};

async function connect(root, as) {
  const t0 = performance.now();
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', root, '--team', 'bench', '--as', as], stderr: 'pipe', env: { ...process.env } });
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(transport);
  return { client, ms: performance.now() - t0 };
}

async function timed(fn) {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

const dir = await mkdtemp(join(tmpdir(), 'mailroom-bench-mcp-'));
try {
  await createTeam({ root: dir, team: 'bench' });
  const starts = [];
  for (let i = 0; i < Math.min(ROUNDS, 5); i++) {
    const { client, ms } = await connect(dir, `agent-${i}`);
    starts.push(ms);
    await client.close();
  }
  const { client } = await connect(dir, 'codex');
  const list = [];
  const send = [];
  for (let i = 0; i < ROUNDS; i++) {
    list.push(await timed(() => client.callTool({ name: 'list_members', arguments: {} })));
    send.push(await timed(() => client.callTool({ name: 'send_message', arguments: { to: 'team-lead', text: `m${i}` } })));
  }
  await client.callTool({ name: 'wait_for_message', arguments: { timeout_ms: 1 } });
  const wake = [];
  for (let i = 0; i < ROUNDS; i++) {
    const waiting = client.callTool({ name: 'wait_for_message', arguments: { timeout_ms: 10_000 } });
    await sleep(150);
    await sendMessage({ root: dir, team: 'bench', to: 'codex', text: `wake ${i}` });
    const t0 = performance.now();
    const result = await waiting;
    if (result.structuredContent?.messages?.[0]?.text !== `wake ${i}`) throw new Error(`round ${i}: wrong result ${JSON.stringify(result.structuredContent)}`);
    wake.push(performance.now() - t0);
  }
  await client.close();
  console.log(`mailroom mcp benchmark (${ROUNDS} rounds, node ${process.version})`);
  console.log(`  start (spawn + join + initialize): ${stats(starts)}`);
  console.log(`  list_members round trip:           ${stats(list)}`);
  console.log(`  send_message round trip:           ${stats(send)}`);
  console.log(`  wait_for_message wake after append: ${stats(wake)}`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
