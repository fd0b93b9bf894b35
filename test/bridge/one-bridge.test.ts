/**
 * One bridge per (root, team) (issue 21 item 5b), with the real CLI and a real redis-server: a
 * second `mailroom bridge` on the same root and team is refused with BRIDGE_RUNNING (exit 4)
 * naming the holder's pid — two bridges copied 85 of 200 messages twice — and a holder killed with
 * kill -9 is taken over at once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli } from '../helpers/cli.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { cleanEnv } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

const TEAM = 'solo';
let server: RedisServer;
let dir: TempDir;
const children: ChildProcess[] = [];
beforeAll(async () => {
  server = await startRedis();
  dir = await makeTempDir('mailroom-one-bridge-');
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await server?.stop();
  await dir?.cleanup();
});

/** Starts `mailroom bridge`; resolves once it printed its `started` line. */
async function bridge(): Promise<ChildProcess> {
  const child = spawn(process.execPath, [BIN, 'bridge', '--root', dir.path, '--team', TEAM, '--json'], { env: cleanEnv({ MAILROOM_STORE: server.url }), stdio: ['ignore', 'pipe', 'pipe'] });
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

const exited = (child: ChildProcess) => new Promise<number | null>((r) => (child.exitCode !== null || child.signalCode !== null ? r(child.exitCode) : child.once('exit', (code) => r(code))));

describe('one mailroom bridge per root and team', () => {
  it('refuses a second bridge with BRIDGE_RUNNING naming the holder, takes over one killed with kill -9, and frees the root on a clean stop', async () => {
    const first = await bridge();
    const second = await runCli(['bridge', '--root', dir.path, '--team', TEAM, '--json'], cleanEnv({ MAILROOM_STORE: server.url }));
    expect(second.code).toBe(4);
    const error = (JSON.parse(second.stderr) as { error: { code: string; message: string; details: { pid: number } } }).error;
    expect(error.code).toBe('BRIDGE_RUNNING');
    expect(error.details.pid).toBe(first.pid);
    expect(error.message).toContain(String(first.pid));

    first.kill('SIGKILL');
    await exited(first);
    const third = await bridge(); // the dead holder's record is stale: taken over at once
    expect(third.pid).not.toBe(first.pid);
    third.kill('SIGTERM');
    expect(await exited(third)).toBe(0);
    expect(existsSync(join(dir.path, 'mailroom', 'bridge', `${TEAM}.pid.json`))).toBe(false);
    const fourth = await bridge();
    fourth.kill('SIGTERM');
    expect(await exited(fourth)).toBe(0);
  }, 120_000);
});
