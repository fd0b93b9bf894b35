/**
 * `team spawn --backend tmux` on a real tmux server of its own (a socket in a temp dir, killed
 * afterwards): the member's `mailroom agent` runs in a new window, its pane is recorded as Claude
 * Code records a tmux teammate, it does its work, and `team stop` ends it and the pane. Without tmux
 * on PATH the spawn fails with TMUX_NOT_FOUND and registers nothing. Needs tmux (`apt install tmux`;
 * .ci/run installs it).
 */
import { execFile } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openFsStores } from '../../src/store/open.js';
import { runCli, type CliRun } from '../helpers/cli.js';
import { until } from '../helpers/runtime.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { cleanEnv } from '../helpers/store-files.js';

const run = promisify(execFile);
let dir: TempDir;
let env: NodeJS.ProcessEnv;

/** tmux as the CLI under test sees it (same TMUX_TMPDIR / $TMUX). */
async function tmux(...args: string[]): Promise<string> {
  return (await run('tmux', args, { env })).stdout;
}

function mailroom(...args: string[]): Promise<CliRun> {
  return runCli(['--root', join(dir.path, 'root'), '--team', 'demo', ...args], env);
}

async function ok(...args: string[]): Promise<CliRun> {
  const r = await mailroom(...args);
  expect(r.code, r.stderr).toBe(0);
  return r;
}

async function panes(): Promise<string[]> {
  return (await tmux('list-panes', '-a', '-F', '#{pane_id} #{pane_current_command} #{window_name}').catch(() => '')).split('\n').filter((l) => l !== '');
}

beforeEach(async () => {
  dir = await makeTempDir();
  await mkdir(join(dir.path, 'tmux'));
  // Every tmux command here and in the CLI talks to a server under this temp dir, never the user's.
  env = cleanEnv({ TMUX_TMPDIR: join(dir.path, 'tmux'), TMUX: '', TMUX_PANE: '' });
  delete env['TMUX'];
  delete env['TMUX_PANE'];
  await run('tmux', ['-V']).catch(() => {
    throw new Error('tmux is not installed: install it (`apt install tmux`) to run the tmux backend tests');
  });
  await ok('team', 'create', 'demo');
  await ok('task', 'add', 'Say hi', '--metadata', 'command=echo hi');
});

afterEach(async () => {
  await mailroom('team', 'stop', 'bob', '--force');
  await tmux('kill-server').catch(() => undefined);
  await dir.cleanup();
});

async function spawnAndStop(): Promise<void> {
  const spawned = await ok('team', 'spawn', 'bob', '--backend', 'tmux', '--prompt', 'Do your task', '--json');
  const out = JSON.parse(spawned.stdout) as { paneId: string; pid: number; member: { tmuxPaneId: string; backendType?: string } };
  expect(out.paneId).toMatch(/^%\d+$/);
  const store = openFsStores(join(dir.path, 'root'));
  const bob = (await store.team.readConfig('demo')).members.find((m) => m.name === 'bob');
  expect(bob).toMatchObject({ tmuxPaneId: out.paneId, backendType: 'tmux' });

  // The pane exists and runs the agent (node running `mailroom agent bob`).
  expect((await panes()).find((p) => p.startsWith(`${out.paneId} `))).toMatch(/node bob$/);
  const argv = (await run('ps', ['-o', 'args=', '-p', String(out.pid)])).stdout;
  expect(argv).toContain('agent bob');

  // It does its task and tells the lead.
  await until(async () => (await store.team.readInbox('demo', 'team-lead')).some((e) => e.from === 'bob' && e.text.includes('Completed #1')), 20_000, 'bob to report #1 to the lead');
  expect((await store.team.readTask('demo', '1'))?.status).toBe('completed');

  const stopped = await ok('team', 'stop', 'bob', '--timeout', '10s', '--json');
  expect(JSON.parse(stopped.stdout)).toMatchObject({ outcome: 'approved' });
  expect((await panes()).some((p) => p.startsWith(`${out.paneId} `))).toBe(false);
  expect((await store.team.readConfig('demo')).members.map((m) => m.name)).toEqual(['team-lead']);
}

it('outside tmux: a window in a detached session mailroom-<team>, answered, stopped, pane gone', async () => {
  await spawnAndStop();
});

it('inside tmux ($TMUX): a window of the current session', async () => {
  await tmux('new-session', '-d', '-s', 'mine', '-x', '120', '-y', '40');
  const [socket, serverPid, pane] = (await tmux('display-message', '-p', '-t', 'mine', '#{socket_path} #{pid} #{pane_id}')).trim().split(' ');
  const sessionId = (await tmux('display-message', '-p', '-t', 'mine', '#{session_id}')).trim().slice(1);
  env = { ...env, TMUX: `${socket!},${serverPid!},${sessionId}`, TMUX_PANE: pane! };
  const before = await tmux('list-windows', '-t', 'mine', '-F', '#{window_name}');
  expect(before.trim().split('\n')).toHaveLength(1);
  const spawned = await ok('team', 'spawn', 'bob', '--backend', 'tmux', '--json');
  expect(JSON.parse(spawned.stdout)).toMatchObject({ session: 'mine' });
  expect((await tmux('list-windows', '-t', 'mine', '-F', '#{window_name}')).trim().split('\n')).toContain('bob');
  await tmux('list-sessions', '-F', '#{session_name}').then((s) => expect(s.trim().split('\n')).toEqual(['mine']));
  const stopped = await ok('team', 'stop', 'bob', '--force', '--json');
  expect(JSON.parse(stopped.stdout)).toMatchObject({ outcome: 'forced' });
  expect((await tmux('list-windows', '-t', 'mine', '-F', '#{window_name}')).trim().split('\n')).toHaveLength(1);
  expect((await panes()).some((p) => p.endsWith(' bob'))).toBe(false);
});

it('without tmux on PATH: TMUX_NOT_FOUND naming the fix, and nothing registered', async () => {
  // A PATH with node and nothing else (node's own directory may hold tmux too, e.g. /usr/bin).
  const bin = join(dir.path, 'bin');
  await mkdir(bin);
  await symlink(process.execPath, join(bin, 'node'));
  env = { ...env, PATH: bin };
  const r = await mailroom('team', 'spawn', 'bob', '--backend', 'tmux', '--prompt', 'hello', '--json');
  expect(r.code).toBe(3);
  expect(JSON.parse(r.stderr)).toMatchObject({ error: { code: 'TMUX_NOT_FOUND' } });
  expect(r.stderr).toContain('apt install tmux');
  const store = openFsStores(join(dir.path, 'root'));
  expect((await store.team.readConfig('demo')).members.map((m) => m.name)).toEqual(['team-lead']);
  expect(await store.team.readInbox('demo', 'bob').catch(() => [])).toEqual([]);
});

it('an agent that dies as it starts: its error code and last lines, the pane closed, the registration rolled back', async () => {
  // A script that is there but is no list of turns (a missing one is refused before the pane opens: spawn-model.test.ts).
  const broken = join(dir.path, 'broken-script.json');
  await writeFile(broken, '{"turns": 42}');
  const r = await mailroom('team', 'spawn', 'bob', '--backend', 'tmux', '--model', `scripted:${broken}`, '--json');
  expect(r.code, r.stderr).toBe(2);
  expect(JSON.parse(r.stderr)).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
  expect(r.stderr).toContain('broken-script.json is not a list of turns');
  expect(await panes()).toEqual([]);
  const store = openFsStores(join(dir.path, 'root'));
  expect((await store.team.readConfig('demo')).members.map((m) => m.name)).toEqual(['team-lead']);
});

it('a tmux member killed with SIGKILL: its pane closes, and team resume starts it in a new pane, recorded anew', async () => {
  const first = JSON.parse((await ok('team', 'spawn', 'bob', '--backend', 'tmux', '--json')).stdout) as { paneId: string; pid: number };
  process.kill(first.pid, 'SIGKILL');
  await until(async () => !(await panes()).some((p) => p.startsWith(`${first.paneId} `)), 10_000, 'the pane to close');
  const resumed = await ok('team', 'resume', '--json');
  const [again] = JSON.parse(resumed.stdout) as { name: string; outcome: string; pid: number }[];
  expect(again).toMatchObject({ name: 'bob', outcome: 'restarted' });
  expect(again!.pid).not.toBe(first.pid);
  const store = openFsStores(join(dir.path, 'root'));
  const bob = (await store.team.readConfig('demo')).members.find((m) => m.name === 'bob');
  expect(bob?.backendType).toBe('tmux');
  expect(bob?.tmuxPaneId).toMatch(/^%\d+$/);
  // (Its pane id may be %0 again: the closed pane was the session's last, so tmux started a new server.)
  expect(await tmux('display-message', '-p', '-t', String(bob?.tmuxPaneId), '#{pane_pid}')).toBe(`${again!.pid}\n`);
  expect((await panes()).find((p) => p.startsWith(`${bob!.tmuxPaneId} `))).toMatch(/node bob$/);
  await ok('team', 'stop', 'bob', '--timeout', '10s');
  expect(await panes()).toEqual([]);
});
