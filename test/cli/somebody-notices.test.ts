/**
 * Somebody always notices (issue 23 item 1), through the real binary: the only teammate, a
 * `mailroom agent` running its task's command, is killed with SIGKILL; no runtime is left to sweep.
 * The next `mailroom task list` sweeps: the task is pending again and the lead is told once
 * (further reads tell nobody again). Then `team resume` restarts the member, which takes its own
 * task first — here re-claimed while still in progress — and carries it on to completion.
 * Liveness timings are shortened with $MAILROOM_BEAT_MS (ttl and grace: three beats); the test
 * waits for events (files, task states), never for a time.
 */
import { access, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isAlive } from '../../src/runtime/process/kill.js';
import { runCli } from '../helpers/cli.js';
import { until } from '../helpers/runtime.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let dir: TempDir;
const pids: number[] = [];
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await writeFile(join(dir.path, 'release-bob'), '').catch(() => undefined);
  for (const pid of pids.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  await dir.cleanup();
});

const exists = (path: string) => access(path).then(() => true, () => false);

describe('a teammate killed with nobody left to notice', () => {
  it('is noticed by the next task list (task pending, lead told once)', async () => {
    const d = dir.path;
    const env = { ...process.env, MAILROOM_BEAT_MS: '200', MAILROOM_TEAM: 't' };
    const cli = async (...args: string[]) => {
      const r = await runCli(['--root', d, ...args], env);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      return r.stdout;
    };
    await cli('team', 'create', 't');
    // First run: signals it started and waits for a release that never comes; after resume, it finishes.
    const command = `if [ -f "${d}/started-bob" ]; then echo resumed; exit 0; fi; touch "${d}/started-bob"; while [ ! -f "${d}/release-bob" ] && [ -d "${d}" ]; do sleep 0.05; done`;
    await cli('task', 'add', 'Build', '--metadata', `command=${command}`);
    await cli('team', 'spawn', 'bob', '--backend', 'process', '--model', 'worker', '--cwd', d);
    await until(() => exists(join(d, 'started-bob')), 60_000, 'bob running #1');
    const show = JSON.parse(await cli('team', 'show', '--json')) as { members: Array<{ name: string; presence: { pid?: number } }> };
    const pid = show.members.find((m) => m.name === 'bob')!.presence.pid!;
    pids.push(pid);
    process.kill(-pid, 'SIGKILL'); // the agent and its command (its own process group)
    process.kill(pid, 'SIGKILL');

    type View = { task: { id: string; status: string; owner?: string; fencingToken?: number; metadata?: Record<string, unknown> } };
    const listed = async () => (JSON.parse(await cli('task', 'list', '--json')) as View[])[0]!.task;
    await until(async () => (await listed()).status === 'pending', 60_000, 'task list to take #1 back');
    expect((await listed()).owner).toBeUndefined();
    await cli('task', 'list');
    await cli('team', 'show');
    const inbox = JSON.parse(await cli('inbox', '--json')) as { messages: Array<{ entry: { from: string; text: string } }> };
    const told = inbox.messages.filter((m) => m.entry.from === 'bob' && m.entry.text.includes('presumed dead'));
    expect(told).toHaveLength(1);
    expect(told[0]!.entry.text).toContain('#1 "Build"');
  }, 240_000);

  it('team resume gives the member its own in-progress task first, and it carries it on', async () => {
    const d = dir.path;
    const env = { ...process.env, MAILROOM_TEAM: 't' };
    const cli = async (...args: string[]) => {
      const r = await runCli(['--root', d, ...args], env);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      return r.stdout;
    };
    await cli('team', 'create', 't');
    const command = `if [ -f "${d}/started-bob" ]; then echo resumed; exit 0; fi; touch "${d}/started-bob"; while [ ! -f "${d}/release-bob" ] && [ -d "${d}" ]; do sleep 0.05; done`;
    await cli('task', 'add', 'Build', '--metadata', `command=${command}`);
    await cli('task', 'add', 'Other');
    await cli('team', 'spawn', 'bob', '--backend', 'process', '--model', 'worker', '--cwd', d);
    await until(() => exists(join(d, 'started-bob')), 60_000, 'bob running #1');
    const show = JSON.parse(await cli('team', 'show', '--json')) as { members: Array<{ name: string; presence: { pid?: number } }> };
    const pid = show.members.find((m) => m.name === 'bob')!.presence.pid!;
    process.kill(-pid, 'SIGKILL');
    process.kill(pid, 'SIGKILL');
    await until(() => !isAlive(pid), 10_000, 'bob gone');

    await cli('team', 'resume');
    type View = { task: { id: string; status: string; owner?: string; fencingToken?: number; metadata?: Record<string, unknown> } };
    const done = await until(async () => {
      const views = JSON.parse(await cli('task', 'list', '--json')) as View[];
      return views.every((v) => v.task.status === 'completed') ? views.map((v) => v.task) : undefined;
    }, 120_000, 'the resumed bob to finish both tasks');
    expect(done[0]).toMatchObject({ id: '1', owner: 'bob', fencingToken: expect.any(Number), metadata: { exitCode: 0 } });
    expect(String(done[0]!.metadata?.outputTail)).toContain('resumed');
    const { events } = JSON.parse(`{"events":[${(await cli('log', '--json')).trim().split('\n').join(',')}]}`) as { events: Array<{ kind: string; task?: { id: string; status: string }; actor?: string }> };
    // #1 was finished before #2 was started: its own task first.
    const completed1 = events.findIndex((e) => e.kind === 'task' && e.task?.id === '1' && e.task.status === 'completed');
    const started2 = events.findIndex((e) => e.kind === 'task' && e.task?.id === '2' && e.task.status === 'in_progress');
    expect(completed1).toBeGreaterThan(-1);
    expect(started2).toBeGreaterThan(completed1);
  }, 240_000);
});
