/**
 * Task commands orphaned by a runtime killed with SIGKILL (as the OOM killer does): each command
 * runs detached in its own process group, so it survives its runtime. Its record
 * (`<root>/mailroom/commands/<team>/<pid>.json`) lets `mailroom doctor --fix`, or the team's next
 * runtime (`mailroom agent`, `mailroom run`), stop it and its children; the task is left as any
 * crash leaves it (in_progress, owned). A recorded pid that now belongs to another process is
 * never signalled.
 */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { BIN } from '../helpers/cli.js';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnMember } from '../../src/core/members/spawn.js';
import { addTask } from '../../src/core/tasks/board.js';
import { createTeam } from '../../src/core/teams/team-lifecycle.js';
import { ownIdentity } from '../../src/core/processes/process-identity.js';
import type { CommandRecord } from '../../src/protocol/command.js';
import { localHostStore, openFsStores } from '../../src/store/open.js';
import { probeProcess } from '../../src/store/fs/proc.js';
import { startCli, type LineChild } from '../helpers/line-child.js';
import { isRunning, killLeftovers, pidFrom } from '../helpers/processes.js';
import { until } from '../helpers/runtime.js';
import { cleanEnv, mailroom } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

/** Writes its own pid and its child's, then waits: the child is in the command's process group. */
const COMMAND = 'echo $$ > cmd.pid; sleep 300 & echo $! > child.pid; wait';

let dir: TempDir;
let root: string;
const pids: number[] = [];
const children: LineChild[] = [];
beforeEach(async () => {
  dir = await makeTempDir();
  root = join(dir.path, 'root');
});
afterEach(async () => {
  for (const child of children.splice(0)) await child.stop();
  await killLeftovers(pids);
  await dir.cleanup();
});

function start(args: string[]): LineChild {
  const child = startCli([...args, '--root', root], cleanEnv());
  children.push(child);
  return child;
}

/** Waits for the command's two pids and its record, then SIGKILLs the runtime: both keep running. */
async function killRuntimeMidCommand(runtime: LineChild, work: string, team: string, command = COMMAND): Promise<{ cmd: number; child: number }> {
  const cmd = await pidFrom(join(work, 'cmd.pid'));
  const child = await pidFrom(join(work, 'child.pid'));
  pids.push(cmd, child);
  const records = await until(async () => {
    const found = await openFsStores(root).host.listCommandRecords(team);
    return found.length > 0 ? found : undefined;
  }, 10_000, 'the command record');
  expect(records).toMatchObject([{ team, agent: 'a', taskId: '1', command, pid: cmd, pgid: cmd, owner: { pid: runtime.proc.pid } }]);
  runtime.proc.kill('SIGKILL');
  await runtime.exited;
  expect([await isRunning(cmd), await isRunning(child)]).toEqual([true, true]); // the bug: nothing stops them
  return { cmd, child };
}

async function runTeamFile(work: string, command: string): Promise<LineChild> {
  const file = join(dir.path, 'team.json');
  await writeFile(file, JSON.stringify({ team: 'slow', members: [{ name: 'a' }], tasks: [{ subject: 'One', command }] }));
  return start(['run', file, '--workdir', work]);
}

describe('commands orphaned by a SIGKILLed runtime', () => {
  it('mailroom run: doctor reports the orphan, doctor --fix stops the command and its child', async () => {
    const work = join(dir.path, 'work');
    const { cmd, child } = await killRuntimeMidCommand(await runTeamFile(work, COMMAND), work, 'slow');

    const check = await mailroom(root, 'doctor', '--json');
    expect(check.code).toBe(7);
    const found = JSON.parse(check.stdout) as { findings: Array<{ kind: string; severity: string; message: string; team?: string }> };
    expect(found.findings).toEqual([expect.objectContaining({ kind: 'orphan-command', severity: 'problem', team: 'slow' })]);
    expect(found.findings[0]!.message).toContain(`(pid ${cmd}) still runs, but the runtime that started it`);

    const fix = await mailroom(root, 'doctor', '--fix');
    expect(fix.stderr).toBe('');
    expect(fix.code).toBe(0);
    expect(fix.stdout).toContain(`fixed: stopped process group ${cmd} (SIGTERM); task #1 stays in_progress with a`);
    expect([await isRunning(cmd), await isRunning(child)]).toEqual([false, false]);
    const store = openFsStores(root);
    expect(await store.host.listCommandRecords()).toEqual([]);
    expect(await store.team.readTask('slow', '1')).toMatchObject({ status: 'in_progress', owner: 'a' }); // as after any crash
    expect((await mailroom(root, 'doctor')).code).toBe(0);

    // The note's command, pasted into a shell, acts on this root: it removes a and frees task #1.
    const stop = /`(mailroom --root \S+ --team slow team stop a --force)`/.exec(fix.stdout)?.[1];
    expect(stop).toBeDefined();
    await promisify(execFile)('sh', ['-c', `"${process.execPath}" "${BIN}"${stop!.slice('mailroom'.length)}`], { env: cleanEnv({ HOME: dir.path }) });
    expect(await store.team.readTask('slow', '1')).toMatchObject({ status: 'pending' });
  });

  it('doctor --fix stops what a command left in its group when its shell ended after the runtime died', async () => {
    const work = join(dir.path, 'work');
    const leaves = 'echo $$ > cmd.pid; sleep 300 & echo $! > child.pid; while [ ! -e gone ]; do sleep 0.05; done';
    const { cmd, child } = await killRuntimeMidCommand(await runTeamFile(work, leaves), work, 'slow', leaves);
    await writeFile(join(work, 'gone'), '');
    await until(async () => !(await isRunning(cmd)), 10_000, 'the command shell to end');
    expect(await isRunning(child)).toBe(true); // left in the group, with nothing to stop it

    const fix = await mailroom(root, 'doctor', '--fix');
    expect(fix.code).toBe(0);
    expect(fix.stdout).toContain(`its shell had ended; stopped what it left in process group ${cmd}`);
    await until(async () => !(await isRunning(child)), 10_000, 'the left-over child to be stopped');
    expect(await openFsStores(root).host.listCommandRecords()).toEqual([]);
  });

  it('mailroom agent: the next runtime of the team stops the orphans when it starts', async () => {
    const work = join(dir.path, 'work');
    await mkdir(work);
    await createTeam({ root: openFsStores(root), team: 't' });
    await spawnMember({ root: openFsStores(root), team: 't', name: 'a', cwd: work });
    const store = openFsStores(root);
    await addTask({ root: openFsStores(root), team: 't', subject: 'One', metadata: { command: COMMAND } });
    const first = start(['agent', 'a', '--team', 't']);
    const { cmd, child } = await killRuntimeMidCommand(first, work, 't');
    expect((await store.host.readProcessRecord('t', 'a'))?.pid).toBe(first.proc.pid); // left by the killed agent

    const next = start(['agent', 'a', '--team', 't']);
    const line = await next.waitForLine((l) => l.includes('orphaned the command of task #1'));
    expect(line).toContain(`(pid ${cmd}), left by process ${first.proc.pid}: stopped process group ${cmd}`);
    expect([await isRunning(cmd), await isRunning(child)]).toEqual([false, false]);
    expect(await store.host.listCommandRecords('t')).toEqual([]);
    expect(await store.team.readTask('t', '1')).toMatchObject({ status: 'in_progress', owner: 'a' });
    expect((await store.host.readProcessRecord('t', 'a'))?.pid).toBe(next.proc.pid); // the stale record was replaced
  });

  it('mailroom run: a new run of the team stops them before it starts', async () => {
    const work = join(dir.path, 'work');
    const once = `[ -e "$MAILROOM_TEAM_FILE_DIR/again" ] && exit 0; ${COMMAND}`;
    const { cmd, child } = await killRuntimeMidCommand(await runTeamFile(work, once), work, 'slow', once);
    expect((await mailroom(root, 'team', 'delete', 'slow')).code).toBe(0);
    await writeFile(join(dir.path, 'again'), '');

    const rerun = await runTeamFile(join(dir.path, 'work2'), once);
    expect(await rerun.exited).toBe(0);
    const notice = rerun.lines().find((l) => l.startsWith('orphaned the command of task #1 (a, team slow)'));
    expect(notice).toContain(`(pid ${cmd}), left by process `);
    expect(notice).toContain(`stopped process group ${cmd} (SIGTERM); task #1 left as it is`); // its team was deleted
    expect([await isRunning(cmd), await isRunning(child)]).toEqual([false, false]);
    expect(await openFsStores(root).host.listCommandRecords()).toEqual([]);
  });

  it('never signals a recorded pid that now belongs to another process, nor a command whose runtime lives', async () => {
    const sleeper = spawn('sleep', ['300'], { detached: true, stdio: 'ignore' });
    const pid = sleeper.pid!;
    pids.push(pid);
    const probe = await probeProcess(pid);
    if (probe.kind !== 'running') throw new Error(`sleep ${pid} is not running`);
    const me = await ownIdentity(localHostStore());
    const store = openFsStores(root);
    const base = { agent: 'a', command: 'sleep 300', pid, pgid: pid, startedAt: Date.now() };
    // Owner "dead": this pid, but another start time (the pid was reused). The command's start time differs too.
    const reused: CommandRecord = { ...base, team: 'reused', startTime: probe.startTime + 1, owner: { pid: me.pid, startTime: me.startTime! + 1 } };
    // Owner alive (this test process): not an orphan at all.
    const owned: CommandRecord = { ...base, team: 'owned', startTime: probe.startTime, owner: me };
    // Owner dead, no start time for the command: cannot be told apart, so reported as info only.
    const unverified: CommandRecord = { ...base, team: 'unverified', owner: { pid: me.pid, startTime: me.startTime! + 1 } };
    for (const r of [reused, owned, unverified]) await store.host.writeCommandRecord(r);

    const fix = await mailroom(root, 'doctor', '--fix', '--json');
    expect(fix.code, fix.stderr).toBe(0);
    const report = JSON.parse(fix.stdout) as { findings: Array<{ kind: string; severity: string; team: string; message: string; repair?: { done: boolean; note: string } }> };
    expect(report.findings.map((f) => [f.team, f.severity, f.repair?.done])).toEqual([
      ['reused', 'problem', true],
      ['unverified', 'info', undefined],
    ]);
    expect(report.findings[0]!.message).toContain(`pid ${pid} now belongs to another process`);
    expect(report.findings[0]!.repair!.note).toBe(`not signalled (pid ${pid} is another process now); record removed`);
    expect(await isRunning(pid)).toBe(true);
    expect((await store.host.listCommandRecords()).map((r) => r.team)).toEqual(['owned', 'unverified']);
    sleeper.kill('SIGKILL');
  });
});
