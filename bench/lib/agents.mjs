// Helpers for benches of `mailroom agent` processes (the process backend, the path users take):
// start one in the foreground with the real CLI, read a process's CPU time from /proc, and a fake
// Anthropic Messages API whose requests tell the bench when the agent's model was asked.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { within } from './probe.mjs';

export const BIN = fileURLToPath(new URL('../../bin/mailroom.js', import.meta.url));

/**
 * Starts `mailroom agent <name>` with `args` (store options, --model); resolves once it logged
 * "started". `stop()` sends SIGTERM and waits for the exit. `bin`: another build's bin/mailroom.js (an A/B).
 */
export async function startAgent(name, args, env = process.env, bin = BIN) {
  const child = spawn(process.execPath, [bin, 'agent', name, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await within(
    new Promise((resolve, reject) => {
      child.stdout.on('data', (d) => ((out += d), out.includes(' started (') && resolve()));
      exited.then((code) => reject(new Error(`mailroom agent ${name} exited ${code}: ${err}${out}`)));
    }),
    60_000,
    `mailroom agent ${name} starting`,
  );
  return { pid: child.pid, stop: async () => (child.kill('SIGTERM'), await exited) };
}

/** CPU time a process has run, in ms (/proc/<pid>/schedstat: nanoseconds on a CPU; Linux only). */
export async function cpuMsOf(pid) {
  const text = await readFile(`/proc/${pid}/schedstat`, 'utf8');
  return Number(text.split(' ')[0]) / 1e6;
}

/**
 * A fake Anthropic Messages API on 127.0.0.1 that answers every request with "ok" (end_turn).
 * `nextRequest()` resolves with `performance.now()` when the next request arrives.
 */
export async function startFakeModel() {
  let waiting;
  const server = createServer((req, res) => {
    const at = performance.now();
    req.resume();
    req.on('end', () => {
      const resolve = waiting;
      waiting = undefined;
      resolve?.(at);
      const body = { id: 'msg_bench', type: 'message', role: 'assistant', model: 'bench', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } };
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_bench' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const baseURL = `http://127.0.0.1:${server.address().port}`;
  return {
    env: { ...process.env, ANTHROPIC_BASE_URL: baseURL, ANTHROPIC_API_KEY: 'bench' },
    nextRequest: () => within(new Promise((r) => (waiting = r)), 10_000, 'the agent\'s model request'),
    close: () => new Promise((r) => server.close(r)),
  };
}
