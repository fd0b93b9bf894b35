/**
 * The process backend through the real binary: a detached `mailroom agent` with its pid record and
 * log under the team directory, stopped with `mailroom team stop --force` in the middle of a long
 * model call — its process and the model program both end, it leaves the roster and its task goes
 * back to pending with no owner.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addTask } from '../../src/core/tasks/board.js';
import { claimTask } from '../../src/core/tasks/claim.js';
import { Layout } from '../../src/store/fs/paths.js';
import { openFsStores } from '../../src/store/open.js';
import { isAlive } from '../../src/runtime/process/kill.js';
import { spawnProcessTeammate } from '../../src/runtime/process/spawn.js';
import { runCli } from '../helpers/cli.js';
import { until } from '../helpers/runtime.js';
import { makeTeam } from '../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

const PROGRAM = fileURLToPath(new URL('../helpers/model-program.mjs', import.meta.url));
let dir: TempDir;
const pids: number[] = [];
beforeEach(async () => {
  dir = await makeTempDir();
  await makeTeam(dir.path, 't');
});
afterEach(async () => {
  for (const pid of pids.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  await dir.cleanup();
});

describe('process backend', () => {
  it('team stop --force ends the process and its model program, and tears the member down', async () => {
    const store = openFsStores(dir.path);
    const { member, process: started } = await spawnProcessTeammate({ root: openFsStores(dir.path), team: 't', name: 'bob', model: `command:node ${PROGRAM} slow ${dir.path}`, cwd: dir.path, prompt: 'Think hard.' });
    pids.push(started.pid);
    expect(member).toMatchObject({ tmuxPaneId: '' });
    expect(member).not.toHaveProperty('backendType');
    expect(await store.host.readProcessRecord('t', 'bob')).toMatchObject({ pid: started.pid, startTime: expect.any(Number), logFile: new Layout(dir.path).agentLogPath('t', 'bob') });
    expect(started.logFile.startsWith(join(dir.path, 'teams', 't', 'logs'))).toBe(true);
    await addTask({ root: openFsStores(dir.path), team: 't', subject: 'Long job' });
    await claimTask({ root: openFsStores(dir.path), team: 't', id: '1', as: 'bob' });
    const slowPid = Number(await until(() => (existsSync(join(dir.path, 'slow-started')) ? readFile(join(dir.path, 'slow-started'), 'utf8') : undefined), 15_000, 'the model call'));
    pids.push(slowPid);

    const stop = await runCli(['team', 'stop', 'bob', '--force', '--root', dir.path, '--team', 't']);
    expect(stop.stderr).toBe('');
    expect(stop.code).toBe(0);
    // Its prompt was in the model call the stop cut short, never acknowledged: still unread, so it is dead-lettered.
    expect(stop.stdout).toBe(`bob was stopped (--force) and left team t; unassigned #1; killed process ${started.pid}; 1 unread message dead-lettered, senders told (\`mailroom dead-letter list\`)\n`);
    expect(isAlive(started.pid)).toBe(false);
    // The model program is a grandchild (`sh -c` forks it; dash does not exec): when its group is
    // killed it is orphaned, and its zombie counts as alive until PID 1 reaps it, which the CI VM's
    // init does only every ~2 s.
    await until(() => !isAlive(slowPid), 15_000, 'the model program to end');
    expect(await store.host.readProcessRecord('t', 'bob')).toBeUndefined();
    expect((await store.team.readConfig('t')).members.map((m) => m.name)).toEqual(['team-lead']);
    expect(await store.team.readTask('t', '1')).toMatchObject({ status: 'pending' });
    expect((await store.team.readTask('t', '1'))?.owner).toBeUndefined();
    expect(await readFile(started.logFile, 'utf8')).toMatch(/bob: started \(pid \d+, model command:node .*\n.*bob: stopped: aborted/);
  });

  it('refuses to start a second process for a teammate that runs', async () => {
    const { process: started } = await spawnProcessTeammate({ root: openFsStores(dir.path), team: 't', name: 'bob', cwd: dir.path });
    pids.push(started.pid);
    const { startProcessTeammate } = await import('../../src/runtime/process/start.js');
    await expect(startProcessTeammate({ root: openFsStores(dir.path), team: 't', name: 'bob' })).rejects.toMatchObject({ code: 'TEAMMATE_RUNNING' });
    const stop = await runCli(['team', 'stop', 'bob', '--root', dir.path, '--team', 't', '--json']);
    expect(JSON.parse(stop.stdout)).toMatchObject({ name: 'bob', outcome: 'approved' });
    await until(() => !isAlive(started.pid), 5_000, 'the worker process to exit');
  });
});
