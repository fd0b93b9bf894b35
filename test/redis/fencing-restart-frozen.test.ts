/**
 * The fault docs/runtime.md "Fencing tokens" names, with real processes: a holder (its own process,
 * test/helpers/fenced-holder.mjs) claims a task and is frozen (SIGSTOP) before its write; the Redis
 * server, without the AOF, is SIGKILLed and restarts from a snapshot taken before that claim; the
 * same member claims the task again with the real CLI binary (its runtime restarted); the holder is
 * thawed (SIGCONT) and makes its fenced write, over a connection it has to open again — refused,
 * TASK_FENCED, nothing written — while the new claim's write goes through.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { cleanEnv } from '../helpers/store-files.js';
import { startRedis } from '../helpers/redis-server.js';
import { scratchRedis, saveSnapshot } from '../helpers/redis-scratch.js';

const HOLDER = fileURLToPath(new URL('../helpers/fenced-holder.mjs', import.meta.url));
const T = 'crew';
const { cleanups, open } = scratchRedis();

it('a holder frozen across a restart from an older snapshot wakes to TASK_FENCED; the claim after the restart writes', async () => {
  const server = await startRedis({ aof: false });
  cleanups.push(() => server.stop());
  const cli = (...args: string[]) => runCli(['--store', server.url, '--root', server.dir, '--team', T, ...args], cleanEnv());
  expect((await runCli(['--store', server.url, '--root', server.dir, 'team', 'create', T], cleanEnv())).code).toBe(0);
  for (const args of [['team', 'spawn', 'alice'], ['task', 'add', 'Build']]) expect((await cli(...args)).code).toBe(0);
  const early = JSON.parse((await cli('task', 'claim', '1', '--as', 'alice', '--json')).stdout) as { fencingToken: number };
  await saveSnapshot(server); // the snapshot the restart loads: alice owns #1 under `early`

  const holder = spawn(process.execPath, [HOLDER, server.url, T, 'alice', '1'], { stdio: ['pipe', 'pipe', 'pipe'] });
  cleanups.push(async () => {
    if (holder.exitCode === null) {
      holder.kill('SIGCONT');
      holder.kill('SIGKILL');
    }
  });
  let out = '';
  let err = '';
  holder.stdout.on('data', (d: Buffer) => (out += d.toString()));
  holder.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((resolve) => holder.on('close', () => resolve()));
  while (!out.includes('\n')) {
    if (holder.exitCode !== null) throw new Error(`holder exited: ${err}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const held = Number(/^token (\d+)$/m.exec(out)![1]);
  expect(held).toBeGreaterThan(early.fencingToken);
  holder.kill('SIGSTOP');

  await server.restart(); // SIGKILL, no save: the claim the holder made is lost
  const after = await open(server);
  expect((await after.readTask(T, '1'))?.fencingToken).toBe(early.fencingToken);
  const again = await cli('task', 'claim', '1', '--as', 'alice', '--json');
  expect(again.code).toBe(0);
  const next = (JSON.parse(again.stdout) as { fencingToken: number }).fencingToken;
  expect(next).toBeGreaterThan(held);

  holder.kill('SIGCONT');
  holder.stdin.write('go\n');
  await exited;
  expect(out.trim().split('\n').at(-1)).toBe('refused TASK_FENCED');
  expect(err).toContain(`its fencing token ${held} is stale: it was claimed again since (token ${next})`);
  expect((await after.readTask(T, '1'))?.metadata).toBeUndefined();
  await after.patchTask(T, '1', { metadata: { exitCode: 0 }, fencingToken: next }, { actor: 'alice' });
  expect((await after.readTask(T, '1'))?.metadata).toEqual({ exitCode: 0 });
}, 90_000);
