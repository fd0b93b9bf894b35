import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import Anthropic from '@anthropic-ai/sdk';
let waiting;
const server = createServer((req, res) => { const at = performance.now(); req.resume(); req.on('end', () => { waiting?.(at); waiting = undefined; res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'r' }); res.end(JSON.stringify({ id: 'm', type: 'message', role: 'assistant', model: 'b', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } })); }); });
await new Promise((r) => server.listen(0, '127.0.0.1', r));
let tf;
const f0 = globalThis.fetch;
const client = new Anthropic({ apiKey: 'x', baseURL: `http://127.0.0.1:${server.address().port}`, ...(process.env.HTTP ? {} : {}) , fetch: (...a) => { tf = performance.now(); return f0(...a); } });
const msgs = [];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const A = [], B = [], C = [];
const N = Number(process.argv[2] ?? 200);
for (let i = -20; i < N; i++) {
  if (process.env.FIXED) msgs.length = 0; msgs.push({ role: "user", content: `<teammate-message teammate_id="team-lead">ping ${i}</teammate-message>` });
  await sleep(50);
  const arrived = new Promise((r) => (waiting = r));
  const t0 = performance.now();
  const p = client.messages.create({ model: 'b', max_tokens: 4096, system: 'You are alice. '.repeat(50), messages: msgs, tools: [{ name: 'SendMessage', description: 'send', input_schema: { type: 'object', properties: { to: { type: 'string' }, message: { type: 'string' } } } }] }, { signal: new AbortController().signal });
  const t1 = await arrived;
  const r = await p;
  if (!process.env.FIXED) msgs.push({ role: "assistant", content: r.content });
  if (i >= 0) { A.push(tf - t0); B.push(t1 - tf); C.push(t1 - t0); }
}
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
console.log(`create→fetch ${med(A).toFixed(3)} fetch→arrived ${med(B).toFixed(3)} total ${med(C).toFixed(3)} load ${loadavg()[0].toFixed(2)}`);
server.close();
