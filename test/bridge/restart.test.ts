/**
 * A bridge killed with SIGKILL mid-sync and started again loses and duplicates nothing (its state in
 * the host store is its cursor); a bridge whose Redis goes away says so, the local team keeps
 * working, and what was written meanwhile is synced once Redis is back. The bridge of machine B runs
 * as the real CLI (`mailroom bridge`) in a child process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { startRedis } from '../helpers/redis-server.js';
import { claudeAppend } from '../helpers/claude-locked.js';
import { until } from '../helpers/runtime.js';
import { cleanEnv } from '../helpers/store-files.js';
import { inboxFile, TEAM, twoMachines, type TwoMachines } from './setup.js';

let t: TwoMachines | undefined;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await t?.close();
  t = undefined;
});

/** Starts `mailroom bridge` for `root`; resolves once it printed its `started` line. */
async function cliBridge(root: string, url: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [BIN, 'bridge', '--root', root, '--team', TEAM, '--json'], { env: cleanEnv({ MAILROOM_STORE: url }), stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if ((JSON.parse(line) as { kind: string }).kind === 'started') resolve();
    });
    child.once('exit', (code) => reject(new Error(`bridge exited ${code}: ${err}`)));
  });
  return child;
}

async function kill9(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

function entry(from: string, body: string): Record<string, unknown> {
  return { from, text: body, timestamp: new Date().toISOString(), color: 'blue', read: false };
}

const texts = async (path: string) => (await inboxFile(path)).map((e) => e.text);

describe('bridge restart', () => {
  it('kill -9 mid-sync, restarted: every message once on both sides', async () => {
    t = await twoMachines();
    await t.a.start();
    let b = await cliBridge(t.b.root, t.server.url);
    const N = 200;
    const writeA = (async () => {
      for (let i = 0; i < N; i++) await claudeAppend(t!.a.inbox('observer'), entry('team-lead', `a-${i}`));
    })();
    const writeB = (async () => {
      for (let i = 0; i < N; i++) await claudeAppend(t!.b.inbox('team-lead'), entry('observer', `b-${i}`));
    })();
    await until(async () => (await texts(t!.b.inbox('observer'))).length >= 40, 20_000, 'B mid-sync');
    await kill9(b);
    const atKill = (await texts(t.b.inbox('observer'))).length;
    expect(atKill).toBeLessThan(N); // killed mid-sync, not after
    b = await cliBridge(t.b.root, t.server.url);
    await Promise.all([writeA, writeB]);
    const all = (p: string) => Array.from({ length: N }, (_, i) => `${p}-${i}`).sort();
    await until(async () => (await texts(t!.b.inbox('observer'))).length >= N && (await texts(t!.a.inbox('team-lead'))).length >= N, 30_000, 'catch-up');
    await t.a.bridge!.idle();
    for (const [path, p] of [[t.b.inbox('observer'), 'a'], [t.a.inbox('team-lead'), 'b'], [t.b.inbox('team-lead'), 'b'], [t.a.inbox('observer'), 'a']] as const) {
      expect((await texts(path)).sort()).toEqual(all(p));
    }
    expect((await t.a.remote.team.readInbox(TEAM, 'team-lead')).map((e) => e.text).sort()).toEqual(all('b'));
    await kill9(b);
  });

  it('Redis unreachable: says so, the local team keeps working, catches up on reconnect', async () => {
    t = await twoMachines({ aof: true });
    await t.a.start();
    await t.b.start();
    await t.server.kill();
    // Claude Code on A goes on writing its own files while Redis is down.
    await claudeAppend(t.a.inbox('observer'), entry('team-lead', 'while down'));
    await until(() => t!.a.statuses.some((s) => s.kind === 'offline'), 20_000, 'offline status');
    expect(await texts(t.a.inbox('observer'))).toEqual(['while down']);
    await t.server.restart();
    await until(async () => (await texts(t!.b.inbox('observer'))).includes('while down'), 30_000, 'caught up on B');
    await until(() => t!.a.statuses.some((s) => s.kind === 'online'), 10_000, 'online status');
    expect(await texts(t.b.inbox('observer'))).toEqual(['while down']);
  });

  it('the CLI started while Redis is down says so and keeps retrying until stopped', async () => {
    const dir = await makeTempDir('mailroom-bridge-down-');
    try {
      const server = await startRedis();
      const url = server.url;
      await server.stop(); // a port nothing listens on any more
      const child = spawn(process.execPath, [BIN, 'bridge', '--root', dir.path, '--team', TEAM, '--json'], { env: cleanEnv({ MAILROOM_STORE: url }), stdio: ['ignore', 'pipe', 'pipe'] });
      children.push(child);
      const lines = createInterface({ input: child.stdout! });
      const seen: Array<{ kind: string }> = [];
      await new Promise<void>((resolve) => lines.on('line', (l) => (seen.push(JSON.parse(l) as { kind: string }), seen.length >= 2 && resolve())));
      expect(seen.map((s) => s.kind)).toEqual(['offline', 'offline']);
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      await dir.cleanup();
    }
  });

  it('refuses to run without a Redis store, saying how to give one', async () => {
    const dir = await makeTempDir('mailroom-bridge-nostore-');
    try {
      const run = await runCli(['bridge', '--root', dir.path, '--team', TEAM], cleanEnv({ MAILROOM_STORE: '' }));
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('INVALID_ARGUMENT');
      expect(run.stderr).toContain('--store redis://');
    } finally {
      await dir.cleanup();
    }
  });
});
