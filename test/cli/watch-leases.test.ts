/**
 * `mailroom watch` without a terminal shows path leases (issue 26 item 3): the live leases after
 * the ready line (and in the ready record's `leases` with --json), then a line when a lease is
 * taken and when it ends — who holds which paths, until when. Real CLI processes, both backends.
 */
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { cleanEnv } from '../helpers/store-files.js';
import { startCli, type LineChild } from '../helpers/line-child.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let redis: RedisServer;
let host: TempDir;
let child: LineChild | undefined;
beforeAll(async () => {
  redis = await startRedis();
  host = await makeTempDir('mailroom-watch-leases-');
});
afterEach(async () => {
  await child?.stop();
  child = undefined;
});
afterAll(async () => {
  await redis?.stop();
  await host?.cleanup();
});

const backends = [
  { name: 'filesystem', args: () => ['--root', join(host.path, 'fs')] },
  { name: 'redis', args: () => ['--store', redis.url, '--root', join(host.path, 'redis-host')] },
];

describe.each(backends)('watch shows leases: $name', { timeout: 120_000 }, (b) => {
  const cli = async (...args: string[]) => {
    const run = await runCli([...b.args(), ...args], cleanEnv());
    expect(run.code, run.stderr).toBe(0);
    return run;
  };

  it('lists the live leases after the ready line, then each lease taken and ended', async () => {
    const team = `wl-${b.name}`;
    await cli('team', 'create', team);
    for (const m of ['alice', 'bob']) await cli('--team', team, 'team', 'spawn', m, '--cwd', host.path);
    await cli('--team', team, 'lease', 'acquire', 'src/**', '--as', 'alice', '--reason', 'store refactor');
    child = startCli([...b.args(), 'watch', team], cleanEnv());
    await child.waitForLine((l) => l.includes(`watching team ${team}`));
    expect(await child.waitForLine((l) => l.includes('lease pl-1'))).toMatch(/^\S+Z {2}lease pl-1 of alice \(exclusive\): src\/\*\* until \S+Z or while its runtime beats — store refactor$/);
    await cli('--team', team, 'lease', 'acquire', 'docs', '--as', 'bob', '--shared');
    await child.waitForLine((l) => l.endsWith('lease pl-2 of bob (shared): docs until') || /lease pl-2 of bob \(shared\): docs until/.test(l));
    await cli('--team', team, 'lease', 'release', 'pl-1', '--as', 'alice');
    await child.waitForLine((l) => l.endsWith('lease pl-1 of alice ended: src/** free'));
    expect(await child.stop()).toBe(0);
    expect(child.stderr()).toBe('');
  });

  it('puts the live leases in the ready record and prints lease records with --json', async () => {
    const team = `wlj-${b.name}`;
    await cli('team', 'create', team);
    await cli('--team', team, 'team', 'spawn', 'alice', '--cwd', host.path);
    await cli('--team', team, 'lease', 'acquire', 'a.ts', '--as', 'alice');
    child = startCli([...b.args(), 'watch', team, '--json'], cleanEnv());
    const ready = JSON.parse(await child.waitForLine((l) => l.includes('"ready"'))) as { leases: Array<Record<string, unknown>> };
    expect(ready.leases).toEqual([expect.objectContaining({ id: 'pl-1', holder: 'alice', paths: ['a.ts'], repo: host.path })]);
    await cli('--team', team, 'lease', 'release', '--all', '--as', 'alice');
    const ended = JSON.parse(await child.waitForLine((l) => l.includes('"kind":"lease"'))) as Record<string, unknown>;
    expect(ended).toMatchObject({ team, kind: 'lease', action: 'ended', lease: { id: 'pl-1', holder: 'alice' } });
    expect(await child.stop()).toBe(0);
  });
});
