/**
 * A store stall is no one's death (issue 21 item 3), with a real redis-server frozen by SIGSTOP for
 * longer than the dead threshold (ttl + grace, shortened with $MAILROOM_BEAT_MS to 1.2 s) while
 * real `mailroom agent` processes run: alice on a long task, carol idle. After SIGCONT nobody is
 * declared dead, no "presumed dead" message reaches the lead, alice keeps her task, and its
 * command ran once. The stall's length and the watch after it are fault durations, not assertions.
 */
import { access, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { until } from '../helpers/runtime.js';
import { cleanEnv } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const exists = (path: string) => access(path).then(() => true, () => false);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Redis frozen (SIGSTOP) longer than the dead threshold', () => {
  it('declares nobody dead and runs nothing twice', async () => {
    const server: RedisServer = await startRedis({ aof: true });
    cleanups.push(() => server.stop());
    const host: TempDir = await makeTempDir('mailroom-redis-stall-');
    cleanups.push(() => host.cleanup());
    const env = { ...cleanEnv(), MAILROOM_BEAT_MS: '200', MAILROOM_TEAM: 's' };
    const ok = async (...args: string[]) => {
      const r = await runCli(['--store', server.url, '--root', host.path, ...args], env);
      expect(r.code, `mailroom ${args.join(' ')}: ${r.stderr}`).toBe(0);
      return r.stdout;
    };
    const d = host.path;
    await ok('team', 'create', 's');
    const pids: number[] = [];
    cleanups.push(async () => {
      await writeFile(join(d, 'release'), '').catch(() => undefined);
      for (const pid of pids) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
    });
    for (const name of ['alice', 'carol']) {
      const out = await ok('team', 'spawn', name, '--backend', 'process', '--model', 'worker', '--cwd', d);
      pids.push(Number(/as process (\d+)/.exec(out)?.[1]));
    }
    await ok('task', 'add', 'Long', '--owner', 'alice', '--metadata', `command=echo run >> "${d}/runs-$MAILROOM_AGENT"; while [ ! -f "${d}/release" ] && [ -d "${d}" ]; do sleep 0.05; done`);
    await until(() => exists(join(d, 'runs-alice')), 60_000, 'alice running #1');
    type Show = { members: Array<{ name: string; presence: { state: string } }> };
    const states = async () => (JSON.parse(await ok('team', 'show', '--json')) as Show).members.filter((m) => m.name !== 'team-lead').map((m) => m.presence.state);
    await until(async () => (await states()).every((s) => s === 'working' || s === 'idle'), 60_000, 'both beating');
    type Listed = Array<{ task: { owner?: string; status: string; fencingToken?: number } }>;
    const claimed = (JSON.parse(await ok('task', 'list', '--json')) as Listed)[0]!.task.fencingToken;
    expect(claimed).toBeGreaterThan(0);

    server.proc().kill('SIGSTOP');
    await pause(4_000); // > ttl + grace (1.2 s): every beat is held up meanwhile
    server.proc().kill('SIGCONT');
    await until(async () => (await states()).every((s) => s === 'working' || s === 'idle'), 60_000, 'both beating again');
    await pause(3_000); // several sweep rounds of both agents after the stall

    const inbox = JSON.parse(await ok('inbox', '--json')) as { messages: Array<{ entry: { from: string; text: string } }> };
    expect(inbox.messages.filter((m) => m.entry.text.includes('presumed dead'))).toEqual([]);
    const tasks = JSON.parse(await ok('task', 'list', '--json')) as Array<{ task: { owner?: string; status: string; fencingToken?: number } }>;
    expect(tasks[0]!.task).toMatchObject({ owner: 'alice', status: 'in_progress', fencingToken: claimed }); // never claimed again
    expect((await readFile(join(d, 'runs-alice'), 'utf8')).trim().split('\n')).toHaveLength(1);
    expect(await exists(join(d, 'runs-carol'))).toBe(false);
  }, 240_000);
});
