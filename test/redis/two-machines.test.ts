/**
 * Two machines, simulated: two distinct roots (each machine's host store: pid records, logs) and
 * one Redis holding the team. The lead works on machine A with the CLI: it creates the team and
 * the demo's six-task DAG (fixtures/demo/team.yaml). Two teammates run on machine B as `mailroom
 * agent` processes (`team spawn --backend process`, offline worker model). The DAG completes; A
 * sees B's teammates alive through their reader claims; A stops them through the shutdown
 * handshake (it has no pid of theirs to signal); each machine's records stay on that machine.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addTask } from '../../src/core/tasks/board.js';
import { isAlive, presenceOf } from '../../src/domain/presence.js';
import { loadTeamFile } from '../../src/runtime/run/team-file.js';
import { openFsStores, openStores } from '../../src/store/open.js';
import type { Stores } from '../../src/store/selection.js';
import { runCli } from '../helpers/cli.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { until } from '../helpers/runtime.js';
import { cleanEnv, FIXTURES } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let server: RedisServer;
let dir: TempDir;
const pids: number[] = [];
beforeAll(async () => {
  server = await startRedis();
  dir = await makeTempDir('mailroom-two-machines-');
});
afterAll(async () => {
  for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
  await server?.stop();
  await dir?.cleanup();
});

const machine = (name: 'a' | 'b') => async (...args: string[]): Promise<string> => {
  const run = await runCli(['--store', server.url, '--root', join(dir.path, name), '--team', 'demo', ...args], cleanEnv({ MAILROOM_STORE: '' }));
  expect(run.code, `machine ${name}: mailroom ${args.join(' ')}: ${run.stderr}`).toBe(0);
  return run.stdout;
};

describe('one team across two machines sharing Redis', () => {
  it("a lead on A, two process teammates on B: the demo's DAG completes", { timeout: 120_000 }, async () => {
    const onA = machine('a');
    const onB = machine('b');
    const work = join(dir.path, 'b-work');
    const demo = join(FIXTURES, 'demo', 'team.yaml');
    const { file, dir: fileDir } = await loadTeamFile(demo, openFsStores(dir.path));

    await mkdir(work);
    await onA('team', 'create', 'demo');
    for (const name of ['alice', 'bob']) {
      const out = await onB('team', 'spawn', name, '--backend', 'process', '--model', 'worker', '--cwd', work);
      pids.push(Number(/as process (\d+)/.exec(out)?.[1]));
    }
    expect(pids.every((p) => p > 0 && alive(p))).toBe(true);

    // The lead on A writes the DAG as `mailroom run` does: each task's command (with the file's
    // directory in its environment) and its dependencies by id.
    const a: Stores = await openStores({ kind: 'redis', url: server.url, hostRoot: join(dir.path, 'a') });
    const ids = new Map<string, string>();
    for (const spec of file.tasks) {
      const metadata = { key: spec.key!, command: spec.command!, env: { MAILROOM_TEAM_FILE_DIR: fileDir }, outputs: spec.outputs };
      const task = await addTask({ root: a, team: 'demo', subject: spec.subject, description: spec.description, blockedBy: spec.blockedBy.map((k) => ids.get(k)!), metadata });
      ids.set(spec.key!, task.id);
    }
    await onA('team', 'broadcast', 'The board is ready: claim what is unblocked.');

    try {
      await until(async () => (await a.team.listTasks('demo')).every((t) => t.status === 'completed'), 60_000, 'the DAG to complete').catch(async (err: unknown) => {
        const logs = await Promise.all(['alice', 'bob'].map((n) => readFile(join(dir.path, 'b', 'teams', 'demo', 'logs', `${n}.log`), 'utf8').catch(() => '')));
        throw new Error(`${String(err)}\ntasks: ${JSON.stringify((await a.team.listTasks('demo')).map((t) => [t.id, t.status, t.owner]))}\n${logs.join('\n')}`);
      });
      const tasks = await a.team.listTasks('demo');
      expect(tasks).toHaveLength(6);
      for (const t of tasks) expect(['alice', 'bob']).toContain(t.owner);
      // A sees B's teammates through the store alone: machine B's host and pids, not its own.
      const claims = await a.team.readClaims('demo');
      const now = Date.now();
      for (const [i, name] of ['alice', 'bob'].entries()) {
        const presence = presenceOf(name, claims, now);
        expect(isAlive(presence), `${name}: ${JSON.stringify(presence)}`).toBe(true);
        expect(presence).toMatchObject({ pid: pids[i], kind: 'agent' });
      }
      expect(await a.host.readProcessRecord('demo', 'alice')).toBeUndefined();
    } finally {
      await a.close();
    }
    expect(await readFile(join(work, 'out', 'report.md'), 'utf8')).toMatch(/^# Sales report/);
    expect(await readFile(join(work, 'out', 'check-totals.txt'), 'utf8')).toMatch(/^rows (\d+), regions \1\n$/);
    expect(existsSync(join(dir.path, 'b', 'teams', 'demo', 'processes', 'alice.json'))).toBe(true);
    expect(existsSync(join(dir.path, 'a', 'teams', 'demo', 'processes'))).toBe(false);

    // The lead on A stops both through the handshake; the processes on B exit by themselves.
    // A has no process record of B's teammates, but their presence is live: no "nothing will
    // answer — Ctrl-C" warning (a new user's trial saw it on a stop that was working).
    for (const name of ['alice', 'bob']) {
      const stop = await runCli(['--store', server.url, '--root', join(dir.path, 'a'), '--team', 'demo', 'team', 'stop', name], cleanEnv({ MAILROOM_STORE: '' }));
      expect(stop.code, stop.stderr).toBe(0);
      expect(stop.stdout).toContain(`${name} approved the shutdown and left team demo`);
      expect(stop.stderr).toMatch(/^Asked \S+ to shut down/);
      expect(stop.stderr).not.toContain('nothing will answer');
    }
    await until(() => pids.every((p) => !alive(p)), 15_000, 'the agents on B to exit');
    expect(JSON.parse(await onA('team', 'show', '--json'))).toMatchObject({ members: [{ name: 'team-lead' }] });
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
