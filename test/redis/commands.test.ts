/**
 * Every command on `--store redis://…` through the real binary, with a real redis-server: `run` of
 * the demo team file (in-process teammates, offline worker model) completes its DAG; a process
 * teammate (`team spawn --backend process`, a detached `mailroom agent`) does a task and stops
 * through the handshake; `watch --json` streams a send; `log` reads the journal from Redis; an MCP
 * member sends and reads; `doctor` reports the server's risky settings (an eviction
 * policy or no AOF: a problem, exit 7). The team state is in Redis: the host root holds no team files.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli } from '../helpers/cli.js';
import { startChild } from '../helpers/child.js';
import { dataOf, startMcpMember } from '../helpers/mcp-client.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { until } from '../helpers/runtime.js';
import { cleanEnv, FIXTURES } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let server: RedisServer;
let host: TempDir;
beforeAll(async () => {
  server = await startRedis();
  host = await makeTempDir('mailroom-redis-cmds-');
});
afterAll(async () => {
  await server?.stop();
  await host?.cleanup();
});

const on = (url: string, ...args: string[]) => runCli(['--store', url, '--root', host.path, ...args], cleanEnv());
async function ok(...args: string[]): Promise<string> {
  const run = await on(server.url, ...args);
  expect(run.code, `mailroom ${args.join(' ')}: ${run.stderr}`).toBe(0);
  return run.stdout;
}
type TaskRow = { task: { id: string; subject: string; owner?: string; status: string } };
const tasksOf = async (team: string) => (JSON.parse(await ok('--team', team, 'task', 'list', '--json')) as TaskRow[]).map((r) => r.task);

describe('mailroom on --store redis://…', () => {
  it('run: the demo team file completes its DAG with in-process teammates', async () => {
    const work = join(host.path, 'work');
    const run = await on(server.url, 'run', join(FIXTURES, 'demo', 'team.yaml'), '--workdir', work, '--timeout', '60s');
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(run.stdout).toContain('6/6 tasks completed');
    expect(run.stdout).toContain(`Team "demo" is in redis://127.0.0.1:${server.port}`);
    const tasks = await tasksOf('demo');
    expect(tasks.map((t) => t.status)).toEqual(Array(6).fill('completed'));
    expect(await readFile(join(work, 'out', 'report.md'), 'utf8')).toMatch(/^# Sales report/);
    // Team state lives in Redis; the root holds only this machine's records.
    expect((await readdir(host.path)).filter((d) => d === 'tasks')).toEqual([]);
    expect(await readdir(join(host.path, 'teams', 'demo')).catch(() => [])).not.toContain('config.json');
  });

  it('a process teammate (mailroom agent) does its task, watch --json sees a send, log reads the journal, team stop ends it', async () => {
    await ok('team', 'create', 'proc');
    const spawned = await ok('--team', 'proc', 'team', 'spawn', 'bob', '--backend', 'process', '--model', 'worker', '--cwd', host.path);
    const pid = Number(/as process (\d+)/.exec(spawned)?.[1]);
    expect(pid).toBeGreaterThan(0);
    await ok('--team', 'proc', 'task', 'add', 'say hi', '--metadata', 'command=echo hi-from-bob', '--owner', 'bob');
    await until(async () => (await tasksOf('proc'))[0]?.status === 'completed', 30_000, 'bob to complete #1');

    const watch = startChild(BIN, ['watch', 'proc', '--json', '--store', server.url, '--root', host.path], cleanEnv());
    try {
      await until(() => watch.stdout().includes('"kind":"ready"'), 15_000, 'watch to be ready');
      await ok('--team', 'proc', 'team', 'send', 'bob', 'ping over redis');
      await until(() => watch.stdout().includes('"line":"ping over redis"'), 15_000, 'watch to show the send');
    } finally {
      watch.proc.kill('SIGTERM');
      await watch.exited;
    }
    const log = await ok('--team', 'proc', 'log');
    expect(log).toContain('bob joined the team');
    expect(log).toMatch(/task #1 "say hi": status in_progress → completed/);
    expect(log).toContain('team-lead → bob: ping over redis');

    const stop = await ok('--team', 'proc', 'team', 'stop', 'bob');
    expect(stop).toContain('bob approved the shutdown and left team proc');
    await until(() => !alive(pid), 15_000, 'the agent process to exit');
    const shown = JSON.parse(await ok('--team', 'proc', 'team', 'show', '--json')) as { members: Array<{ name: string }> };
    expect(shown.members.map((m) => m.name)).toEqual(['team-lead']);
    expect(await readFile(join(host.path, 'teams', 'proc', 'logs', 'bob.log'), 'utf8')).toMatch(/bob: started \(pid \d+, model worker, team proc\)/);
  });

  it('an MCP member joins, sends and reads on Redis', async () => {
    await ok('team', 'create', 'mcpt');
    const mcp = await startMcpMember(['--store', server.url, '--root', host.path, '--team', 'mcpt', '--as', 'codex']);
    try {
      dataOf(await mcp.call('send_message', { to: 'team-lead', text: 'codex here' }));
      await ok('--team', 'mcpt', 'team', 'send', 'codex', 'welcome codex');
      const read = dataOf<{ messages: Array<{ text: string }> }>(await mcp.call('read_inbox', {}));
      expect(read.messages.map((m) => m.text)).toEqual(['welcome codex']);
    } finally {
      await mcp.close();
    }
    const inbox = JSON.parse(await ok('--team', 'mcpt', 'inbox', 'team-lead', '--json')) as { messages: Array<{ entry: { from: string; text: string } }> };
    expect(inbox.messages.map((m) => [m.entry.from, m.entry.text])).toEqual([['codex', 'codex here']]);
  });

  it('doctor: a server without AOF is a problem (exit 7): a restart loses acknowledged mail', async () => {
    const run = await on(server.url, 'doctor', '--json');
    expect(run.code, run.stderr).toBe(7);
    const report = JSON.parse(run.stdout) as { findings: Array<{ kind: string; severity: string; message: string }>; problems: number };
    // Two problems: no AOF, and this test server's default user has no password (also a problem).
    expect(report.problems).toBe(2);
    expect(report.findings.filter((f) => f.kind === 'server-setting')).toEqual([
      expect.objectContaining({ severity: 'problem', message: expect.stringContaining('appendonly is no') }),
      expect.objectContaining({ severity: 'problem', message: expect.stringContaining('default user is on, no password') }),
    ]);
  });

  it('doctor: an eviction policy is a problem (exit 7) that --fix leaves to the operator; AOF on is not reported', async () => {
    const lru = await startRedis({ aof: true, args: ['--maxmemory-policy', 'allkeys-lru'] });
    try {
      const run = await on(lru.url, 'doctor');
      expect(run.code, run.stderr).toBe(7);
      expect(run.stdout).toContain('maxmemory-policy is allkeys-lru');
      expect(run.stdout).not.toContain('appendonly');
      expect(run.stderr).toContain('STORE_UNHEALTHY');
      // Only a server setting is wrong: the hint names the server's settings, not --fix, which
      // changes no server (a new user was sent round in a circle, session 15).
      expect(run.stderr).toContain("Change the server's settings");
      expect(run.stderr).not.toContain('Run `mailroom doctor --fix`');
      // Nor as a command to paste (the hint scoping turned the aside into one: new-user trial, session 19).
      expect(run.stderr).not.toMatch(/`mailroom [^`]*doctor --fix`/);
      const fixed = await on(lru.url, 'doctor', '--fix');
      expect(fixed.code).toBe(7);
      expect(fixed.stdout).toContain('not fixed: mailroom does not change the server');
    } finally {
      await lru.stop();
    }
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
