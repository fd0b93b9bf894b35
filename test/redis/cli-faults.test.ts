/**
 * Faults of the Redis store through the real binary, with a real redis-server: every command on a
 * server that is down fails with STORE_UNAVAILABLE (exit 6) naming the URL without its password
 * and leaves nothing half-written (the team in Redis as it was, no records in the host root); a
 * running process teammate (`mailroom agent`) keeps running across a kill -9 and restart of Redis
 * (AOF, appendfsync always) and does the next task; and every `team send` that exited 0 before,
 * during or after such a restart is there afterwards, once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { until } from '../helpers/runtime.js';
import { cleanEnv, listFiles } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setUp(options: Parameters<typeof startRedis>[0] = {}): Promise<{ server: RedisServer; host: TempDir }> {
  const server = await startRedis(options);
  cleanups.push(() => server.stop());
  const host = await makeTempDir('mailroom-redis-faults-');
  cleanups.push(() => host.cleanup());
  return { server, host };
}

const cli = (server: RedisServer, host: TempDir, ...args: string[]) => runCli(['--store', server.url, '--root', host.path, ...args], cleanEnv());
async function ok(server: RedisServer, host: TempDir, ...args: string[]): Promise<string> {
  const run = await cli(server, host, ...args);
  expect(run.code, `mailroom ${args.join(' ')}: ${run.stderr}`).toBe(0);
  return run.stdout;
}
type InboxJson = { messages: Array<{ entry: { from: string; text: string } }> };
type TaskRow = { task: { id: string; status: string } };

describe('Redis down', () => {
  it('every command fails with STORE_UNAVAILABLE (exit 6) naming the URL without its password, writing nothing', async () => {
    const { server, host } = await setUp({ aof: true, password: 's3cret-pw' });
    await ok(server, host, 'team', 'create', 'down');
    await ok(server, host, '--team', 'down', 'team', 'spawn', 'bob', '--prompt', 'hello');
    await ok(server, host, '--team', 'down', 'task', 'add', 'one');
    const before = await listFiles(host.path);
    await server.kill();
    const attempts = [
      ['team', 'list'],
      ['--team', 'down', 'team', 'send', 'bob', 'lost?'],
      ['--team', 'down', 'task', 'add', 'two'],
      ['--team', 'down', 'task', 'claim', '1', '--as', 'bob'],
      ['--team', 'down', 'team', 'spawn', 'carol', '--backend', 'process', '--model', 'worker'],
      ['--team', 'down', 'inbox', 'bob', '--json'],
      ['--team', 'down', 'log'],
      ['doctor'],
      ['team', 'create', 'other'],
    ];
    // All at once: each waits about a second for the server before failing, and nine of those one
    // after another, plus the other seven process starts, outlasted the 30 s test timeout under load.
    const runs = await Promise.all(attempts.map((args) => cli(server, host, ...args)));
    for (const [i, run] of runs.entries()) {
      const args = attempts[i]!;
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(6);
      expect(run.stderr).toContain('STORE_UNAVAILABLE');
      expect(run.stderr).toContain(`redis://:***@127.0.0.1:${server.port}`);
      expect(run.stderr + run.stdout).not.toContain('s3cret-pw');
    }
    // Nothing half-written on this machine: no process record, log or member file appeared.
    expect(await listFiles(host.path)).toEqual(before);
    await server.restart();
    const inbox = JSON.parse(await ok(server, host, '--team', 'down', 'inbox', 'bob', '--json')) as InboxJson;
    expect(inbox.messages.map((m) => m.entry.text)).toEqual(['hello']);
    const tasks = JSON.parse(await ok(server, host, '--team', 'down', 'task', 'list', '--json')) as TaskRow[];
    expect(tasks.map((r) => [r.task.id, r.task.status])).toEqual([['1', 'pending']]);
    expect(JSON.parse(await ok(server, host, 'team', 'list', '--json'))).toEqual(['down']);
  });
});

describe('Redis killed -9 and restarted (AOF, appendfsync always)', () => {
  it('a running process teammate keeps running, reconnects and does the next task', async () => {
    const { server, host } = await setUp({ aof: true });
    await ok(server, host, 'team', 'create', 'live');
    const spawned = await ok(server, host, '--team', 'live', 'team', 'spawn', 'bob', '--backend', 'process', '--model', 'worker', '--cwd', host.path);
    const pid = Number(/as process (\d+)/.exec(spawned)?.[1]);
    cleanups.push(async () => {
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    });
    const statuses = async () => (JSON.parse(await ok(server, host, '--team', 'live', 'task', 'list', '--json')) as TaskRow[]).map((r) => r.task.status);
    await ok(server, host, '--team', 'live', 'task', 'add', 'before', '--metadata', 'command=echo one', '--owner', 'bob');
    await until(async () => (await statuses()).join() === 'completed', 30_000, 'bob to complete #1');

    await server.restart();
    expect(alive(pid)).toBe(true);
    await ok(server, host, '--team', 'live', 'task', 'add', 'after', '--metadata', 'command=echo two', '--owner', 'bob');
    await until(async () => (await statuses()).join() === 'completed,completed', 30_000, 'bob to complete #2 after the restart');
    expect(alive(pid)).toBe(true);
    const stop = await ok(server, host, '--team', 'live', 'team', 'stop', 'bob');
    expect(stop).toContain('bob approved the shutdown');
    await until(() => !alive(pid), 15_000, 'the agent to exit');
  });

  it('loses no acknowledged `team send`: each one that exited 0 is there once', async () => {
    const { server, host } = await setUp({ aof: true });
    await ok(server, host, 'team', 'create', 'aof');
    await ok(server, host, '--team', 'aof', 'team', 'spawn', 'bob');
    const acked: string[] = [];
    const send = async (text: string) => {
      const run = await cli(server, host, '--team', 'aof', 'team', 'send', 'bob', text);
      if (run.code === 0) acked.push(text);
      else expect(run.stderr).toContain('STORE_UNAVAILABLE');
    };
    const writers = [0, 1, 2, 3].map(async (w) => {
      for (let n = 0; n < 5; n++) await send(`w${w}-${n}`);
    });
    await until(() => acked.length >= 4, 30_000, 'some sends to be acknowledged');
    await server.restart();
    await Promise.all(writers);
    await server.restart();
    const texts = (JSON.parse(await ok(server, host, '--team', 'aof', 'inbox', 'bob', '--json')) as InboxJson).messages.map((m) => m.entry.text);
    expect(new Set(texts).size).toBe(texts.length);
    expect([...texts].sort()).toEqual(expect.arrayContaining(acked));
    expect(acked.length).toBeGreaterThan(4);
    // Its own wait for the first acknowledgements is 30 s: the test's limit must exceed it, or the
    // default 30 s cut the test before that wait could say what did not come (seen under load).
  }, 90_000);
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
