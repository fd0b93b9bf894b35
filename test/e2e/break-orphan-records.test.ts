/**
 * Hand-edited, garbage and half-written records under `<root>/mailroom/commands/` and
 * `teams/<team>/processes/` (found by trying to break the orphan reaper): a command record whose
 * `pgid` is not its own pid made `doctor --fix` signal that other process group (with pgid 1 it
 * would have been `kill(-1)`: every process); one whose file name is not its pid was reported
 * "fixed: record removed" on every run while the file stayed; garbage records and the temp file of
 * a record write killed mid-way were never reported; and a corrupt process record made `mailroom
 * agent` fail with FILE_CORRUPT pointing to `doctor --fix`, which found nothing to fix.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stopProcessGroup } from '../../src/core/processes/process-group.js';
import { ownIdentity } from '../../src/core/processes/process-identity.js';
import type { CommandRecord } from '../../src/protocol/command.js';
import { localHostStore, openFsStores } from '../../src/store/open.js';
import { probeProcess } from '../../src/store/fs/proc.js';
import { isRunning, killLeftovers } from '../helpers/processes.js';
import { mailroom, mailroomOk } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

interface Report {
  findings: Array<{ kind: string; severity: string; path?: string; message: string; repair?: { done: boolean; note: string } }>;
}

let dir: TempDir;
let root: string;
const pids: number[] = [];
beforeEach(async () => {
  dir = await makeTempDir();
  root = join(dir.path, 'root');
});
const groups: number[] = [];
afterEach(async () => {
  for (const pgid of groups.splice(0)) {
    try {
      process.kill(-pgid, 'SIGKILL'); // a group this test started detached, with its children
    } catch {
      // gone
    }
  }
  await killLeftovers(pids);
  await dir.cleanup();
});

/** A detached process (leader of its own group) that runs until the test kills it. */
async function detached(command: string): Promise<{ pid: number; startTime: number }> {
  const child: ChildProcess = spawn('sh', ['-c', command], { detached: true, stdio: 'ignore' });
  child.unref();
  const pid = child.pid!;
  groups.push(pid);
  const probe = await probeProcess(pid);
  if (probe.kind !== 'running') throw new Error(`process ${pid} is not running`);
  return { pid, startTime: probe.startTime };
}

/** An owner that is dead: this process's pid with another start time (its pid reused). */
async function deadOwner(): Promise<CommandRecord['owner']> {
  const me = await ownIdentity(localHostStore());
  return { pid: me.pid, startTime: me.startTime! + 1 };
}

async function doctor(...args: string[]): Promise<Report & { code: number }> {
  const run = await mailroom(root, 'doctor', '--json', ...args);
  return { ...(JSON.parse(run.stdout) as Report), code: run.code };
}

describe('command records', () => {
  it('never signals a process group the record names but its command does not lead', async () => {
    const victim = await detached('sleep 300 & wait'); // an unrelated group: leader and a child
    const command = await detached('sleep 301');
    const dirPath = join(root, 'mailroom', 'commands', 't');
    await mkdir(dirPath, { recursive: true });
    const record: CommandRecord = { team: 't', agent: 'a', command: 'sleep 301', pid: command.pid, pgid: victim.pid, startTime: command.startTime, startedAt: Date.now(), owner: await deadOwner() };
    await writeFile(join(dirPath, `${command.pid}.json`), JSON.stringify(record));

    const fix = await doctor('--fix');
    expect(await isRunning(victim.pid)).toBe(true); // was: SIGTERM then SIGKILL to the victim's group
    expect(await isRunning(command.pid)).toBe(true); // the record cannot be trusted: nothing is signalled
    expect(fix.findings).toEqual([expect.objectContaining({ kind: 'corrupt-file', path: join(dirPath, `${command.pid}.json`) })]);
    expect(fix.findings[0]!.message).toContain('does not match the command record format');
    expect(fix.findings[0]!.repair?.done).toBe(true); // moved aside, never overwritten
    expect(await openFsStores(root).host.listCommandRecords()).toEqual([]);
  });

  it('takes a record of pid 1 for no command (kill(-1) would signal every process)', async () => {
    const init = await probeProcess(1);
    const dirPath = join(root, 'mailroom', 'commands', 't');
    await mkdir(dirPath, { recursive: true });
    const startTime = init.kind === 'running' ? init.startTime : 0;
    await writeFile(join(dirPath, '1.json'), JSON.stringify({ team: 't', agent: 'a', command: 'x', pid: 1, pgid: 1, startTime, startedAt: 1, owner: await deadOwner() }));
    expect(await openFsStores(root).host.listCommandRecords()).toEqual([]);
    const check = await doctor(); // without --fix: nothing is signalled whatever it finds
    expect(check.findings.map((f) => f.kind)).toEqual(['corrupt-file']);
  });

  it('does not report a record removed when its file (named for another pid) stays', async () => {
    const dirPath = join(root, 'mailroom', 'commands', 't');
    await mkdir(dirPath, { recursive: true });
    const path = join(dirPath, '11.json');
    await writeFile(path, JSON.stringify({ team: 't', agent: 'a', command: 'x', pid: 2147483000, pgid: 2147483000, startTime: 3, startedAt: 1, owner: await deadOwner() }));

    const first = await doctor('--fix');
    expect(first.findings).toEqual([expect.objectContaining({ kind: 'corrupt-file', path, repair: expect.objectContaining({ done: true }) })]);
    const again = await doctor();
    expect(again.findings).toEqual([]); // was: "fixed: record removed" on every run, the file untouched
    expect(again.code).toBe(0);
  });

  it('reports garbage records and the temp file of a record write killed mid-way; --fix moves them aside', async () => {
    const dirPath = join(root, 'mailroom', 'commands', 't');
    await mkdir(join(dirPath, '7.json'), { recursive: true }); // a directory in place of a record
    const garbage: Record<string, string> = { '2.json': '', '3.json': '{garb', '4.json': 'null', '5.json': '[]', '6.json': JSON.stringify({ pid: 1, pgid: 1 }) };
    for (const [name, text] of Object.entries(garbage)) await writeFile(join(dirPath, name), text);
    await writeFile(join(dirPath, '8.json.12345'), '{"team":"t"'); // temp file of a killed atomic write

    const check = await doctor();
    expect(check.code).toBe(7);
    expect(check.findings.map((f) => [f.kind, f.path])).toEqual([
      ...['2.json', '3.json', '4.json', '5.json', '6.json', '7.json'].map((n) => ['corrupt-file', join(dirPath, n)]),
      ['temp-file', join(dirPath, '8.json.12345')],
    ]);
    await new Promise((r) => setTimeout(r, 2_100)); // a temp file younger than 2 s may be mid-write: left alone
    const fix = await doctor('--fix');
    expect(fix.code).toBe(0);
    expect(fix.findings.every((f) => f.repair?.done === true)).toBe(true);
    expect((await readdir(dirPath)).filter((n) => !n.includes('.corrupt-'))).toEqual([]);
    expect(await doctor()).toMatchObject({ code: 0, findings: [] });
  });
});

describe('stopProcessGroup', () => {
  it('signals a group only when the recorded leader leads it', async () => {
    const victim = await detached('sleep 300 & wait');
    const leader = await detached('sleep 301');
    expect(await stopProcessGroup(localHostStore(), victim.pid, leader, 100)).toEqual({ signalled: false, liveness: 'unverified' });
    expect([await isRunning(victim.pid), await isRunning(leader.pid)]).toEqual([true, true]);
  });

  it("signals a leader that leads no group alone (a foreground agent inside its shell's group)", async () => {
    const child = spawn('sleep', ['302'], { stdio: 'ignore' }); // in this test's own process group
    const pid = child.pid!;
    pids.push(pid);
    const probe = await probeProcess(pid);
    if (probe.kind !== 'running') throw new Error(`sleep ${pid} is not running`);
    expect(probe.pgid).not.toBe(pid);
    const exited = new Promise((r) => child.once('exit', r));
    expect(await stopProcessGroup(localHostStore(), pid, { pid, startTime: probe.startTime }, 5_000)).toEqual({ signalled: true, signal: 'SIGTERM', stopped: true });
    await exited;
    expect(await isRunning(process.pid)).toBe(true);
  });
});

describe('process records', () => {
  beforeEach(async () => {
    await mailroomOk(root, 'team', 'create', 't');
    await mailroomOk(root, 'team', 'spawn', 'a', '--team', 't');
  });

  it.each([
    ['not JSON', '{garbage'],
    ['a pid that is not a number', JSON.stringify({ team: 't', agent: 'a', pid: '4242', startedAt: 1, argv: [] })],
  ])('a record that is %s: the agent refuses it untouched, doctor finds it and --fix moves it aside', async (_what, text) => {
    const path = join(root, 'teams', 't', 'processes', 'a.json');
    await mkdir(join(root, 'teams', 't', 'processes'), { recursive: true });
    await writeFile(path, text);

    const agent = await mailroom(root, 'agent', 'a', '--team', 't');
    expect(agent.code, agent.stderr).toBe(7);
    expect(agent.stderr).toContain(`FILE_CORRUPT: ${path}`);
    expect(agent.stderr).toContain('doctor --fix');
    const check = await doctor();
    expect(check.findings).toEqual([expect.objectContaining({ kind: 'corrupt-file', path })]); // was: no problems found
    const fix = await doctor('--fix');
    expect(fix.findings[0]?.repair?.done).toBe(true);
    expect((await readdir(join(root, 'teams', 't', 'processes'))).filter((n) => n.startsWith('a.json.corrupt-'))).toHaveLength(1);
  });
});
