/**
 * `team stop` of a process teammate busy in a task command (issue 23): the command — its whole
 * process group — is cancelled (SIGTERM, then SIGKILL after the grace), the teammate answers the
 * shutdown_request, and `team stop` returns `approved` without waiting for its timeout. The task
 * goes back to pending with no owner.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openFsStores } from '../../src/store/open.js';
import { isRunning, killLeftovers, pidFrom } from '../helpers/processes.js';
import { until } from '../helpers/runtime.js';
import { mailroom, mailroomOk } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let dir: TempDir;
const leftovers: number[] = [];
beforeEach(async () => {
  dir = await makeTempDir('mailroom-stop-busy-');
  await mailroomOk(dir.path, 'team', 'create', 'demo');
});
afterEach(async () => {
  await mailroom(dir.path, 'team', 'stop', 'dan', '--force');
  await killLeftovers(leftovers);
  await dir.cleanup();
});

it('cancels the running command (and what it started) and the teammate approves at once', async () => {
  const pidFile = join(dir.path, 'sleep.pid');
  // The shell starts a child in its group (the `sleep`), so the group, not only the leader, must go.
  await mailroomOk(dir.path, 'task', 'add', 'Long', '--metadata', `command=sleep 300 & echo $! > ${pidFile}; wait`);
  await mailroomOk(dir.path, 'team', 'spawn', 'dan', '--backend', 'process');
  const sleeper = await pidFrom(pidFile, 60_000);
  leftovers.push(sleeper);
  const store = openFsStores(dir.path);
  await until(async () => (await store.team.readTask('demo', '1'))?.status === 'in_progress', 30_000, 'task #1 in progress');

  // The timeout is far longer than the test's: an answer must come because the command was cancelled.
  const stop = await mailroom(dir.path, 'team', 'stop', 'dan', '--timeout', '10m', '--json');
  expect(stop.code, stop.stderr).toBe(0);
  const result = JSON.parse(stop.stdout) as { outcome: string; cancelledCommands?: number[] };
  expect(result.outcome).toBe('approved');
  expect(result.cancelledCommands).toHaveLength(1);
  await until(async () => !(await isRunning(sleeper)), 10_000, 'the sleep to be gone');
  expect(await store.host.listCommandRecords('demo')).toEqual([]);
  const task = await store.team.readTask('demo', '1');
  expect(task).toMatchObject({ status: 'pending' });
  expect(task?.owner ?? '').toBe('');
  expect((await store.team.readConfig('demo')).members.map((m) => m.name)).toEqual(['team-lead']);
}, 120_000);

it('the human line says the command was cancelled', async () => {
  await mailroomOk(dir.path, 'task', 'add', 'Long', '--metadata', 'command=sleep 300');
  await mailroomOk(dir.path, 'team', 'spawn', 'dan', '--backend', 'process');
  const store = openFsStores(dir.path);
  await until(async () => (await store.host.listCommandRecords('demo')).length === 1, 60_000, 'the command to run');
  leftovers.push(...(await store.host.listCommandRecords('demo')).map((r) => r.pid));
  const stop = await mailroom(dir.path, 'team', 'stop', 'dan', '--timeout', '10m');
  expect(stop.code, stop.stderr).toBe(0);
  expect(stop.stdout).toMatch(/^dan approved the shutdown and left team demo; cancelled 1 running command \(pid \d+\)\n$/);
}, 120_000);
