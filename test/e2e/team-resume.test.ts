/**
 * `mailroom team resume` (issue 10 item 3) through the real binary: a `mailroom agent` killed with
 * SIGKILL mid-task is started again under its name, with the roster's model; its message taken by
 * the dead process is delivered again to the new one, and its in-progress task stays its own. A
 * member still running is left alone, and a second resume restarts nothing.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addTask } from '../../src/core/tasks/board.js';
import { claimTask } from '../../src/core/tasks/claim.js';
import { showTeam } from '../../src/core/teams/team-lifecycle.js';
import { openFsStores } from '../../src/store/open.js';
import { isAlive } from '../../src/runtime/process/kill.js';
import { spawnProcessTeammate } from '../../src/runtime/process/spawn.js';
import { runCli } from '../helpers/cli.js';
import { until } from '../helpers/runtime.js';
import { makeTeam } from '../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

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

describe('team resume', () => {
  it('restarts a killed agent with its mail and its task; leaves a running one alone', async () => {
    const script = join(dir.path, 'slow.yaml');
    await writeFile(script, '- text: thinking for a long time\n  delayMs: 600000\n- text: thinking again\n  delayMs: 600000\n');
    const store = openFsStores(dir.path);
    await addTask({ root: openFsStores(dir.path), team: 't', subject: 'Long job' });
    const { process: first } = await spawnProcessTeammate({ root: openFsStores(dir.path), team: 't', name: 'bob', model: `scripted:${script}`, cwd: dir.path, prompt: 'Do the long job.' });
    pids.push(first.pid);
    await claimTask({ root: openFsStores(dir.path), team: 't', id: '1', as: 'bob' });
    const delivered = async () => (await store.team.readEvents('t')).events.filter((e) => e.kind === 'delivery' && e.to === 'bob' && e.state === 'delivered');
    await until(async () => (await delivered()).length === 1, 15_000, 'the prompt handed to the first process');

    process.kill(first.pid, 'SIGKILL');
    await until(() => !isAlive(first.pid), 5_000, 'bob to die');

    const run = await runCli(['team', 'resume', 't', '--root', dir.path, '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const [resumed] = JSON.parse(run.stdout) as { name: string; outcome: string; pid: number }[];
    expect(resumed).toMatchObject({ name: 'bob', outcome: 'restarted' });
    pids.push(resumed!.pid);
    expect(resumed!.pid).not.toBe(first.pid);
    // The new process took the claim over (the old one is proved dead on this host) and got the mail again.
    await until(async () => (await delivered()).length === 2, 15_000, 'the prompt delivered again');
    await until(async () => (await showTeam({ root: openFsStores(dir.path), team: 't' })).members.find((m) => m.name === 'bob')?.presence.pid === resumed!.pid, 15_000, 'presence of the new process');
    expect(await store.team.readTask('t', '1')).toMatchObject({ status: 'in_progress', owner: 'bob' });
    const bob = (await store.team.readConfig('t')).members.find((m) => m.name === 'bob');
    expect(bob?.model).toBe(`scripted:${script}`);

    const again = await runCli(['team', 'resume', 't', '--root', dir.path, '--json']);
    expect(JSON.parse(again.stdout)).toEqual([{ name: 'bob', outcome: 'running', pid: resumed!.pid }]);
  }, 60_000);
});
