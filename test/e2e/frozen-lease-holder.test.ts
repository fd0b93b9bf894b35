/**
 * A lease holder frozen, then woken after its lease ended (docs/leases.md "Lifetime", "Fencing"),
 * on both stores with a real `mailroom agent` process and the real CLI: while alice's runtime beats,
 * her lease outlives its TTL; SIGSTOP her, and once her presence is dead and her TTL has run from
 * her last beat, bob's overlapping lease is granted (hers journalled `expired`, why `dead`). After
 * SIGCONT she beats again, but her lease is not revived: releasing its id is LEASE_NOT_FOUND, bob's
 * lease stands, and the PreToolUse hook run for her blocks her edit of the path bob now holds.
 * `$MAILROOM_BEAT_MS` 300: dead after three missed beats. Waits are for events, not timed.
 */
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { liveTeam, type LiveTeam } from '../helpers/live-team.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { until } from '../helpers/runtime.js';

const BEAT_MS = 300;

describe.each(['files', 'redis'] as const)('on %s', (backend) => {
  let server: RedisServer | undefined;
  let team: LiveTeam | undefined;
  let frozen: number | undefined;
  beforeAll(async () => {
    if (backend === 'redis') server = await startRedis();
  });
  afterAll(async () => {
    await server?.stop();
  });
  afterEach(async () => {
    if (frozen !== undefined) process.kill(frozen, 'SIGCONT');
    await team?.cleanup();
  });

  function hook(t: LiveTeam, as: string, file: string): Promise<{ code: number; stderr: string }> {
    return new Promise((resolve) => {
      const args = [BIN, ...(server ? ['--store', server.url] : []), '--root', t.dir, '--team', 's', 'lease', 'hook', '--as', as];
      const child = spawn(process.execPath, args, { env: t.env, stdio: ['pipe', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.on('exit', (code) => resolve({ code: code ?? -1, stderr }));
      child.stdin.end(JSON.stringify({ tool_name: 'Edit', cwd: t.dir, tool_input: { file_path: join(t.dir, file) } }));
    });
  }

  it('a frozen holder loses its lease to a live member, and once woken cannot release it, nor edit the path', async () => {
    const t = (team = await liveTeam(server ? ['--store', server.url] : [], BEAT_MS));
    await mkdir(join(t.dir, 'src'));
    const alice = await t.spawnAgent('alice');
    await t.ok('team', 'spawn', 'bob', '--cwd', t.dir);
    await until(async () => ['idle', 'working'].includes((await t.states()).alice ?? ''), 30_000, 'alice beating');
    await t.ok('lease', 'acquire', 'src', '--as', 'alice', '--ttl', '1s');
    // Past its TTL, a beating holder's lease still holds.
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await t.run(['lease', 'acquire', 'src/a.ts', '--as', 'bob'])).code).toBe(4);

    process.kill(alice, 'SIGSTOP');
    frozen = alice;
    await until(async () => (await t.states()).alice === 'dead', 30_000, 'alice dead');
    const got = await until(async () => {
      const run = await t.run(['lease', 'acquire', 'src/a.ts', '--as', 'bob', '--json']);
      return run.code === 0 ? (JSON.parse(run.stdout) as { id: string }) : undefined;
    }, 30_000, 'bob to get the lease');

    process.kill(alice, 'SIGCONT');
    frozen = undefined;
    await until(async () => (await t.states()).alice !== 'dead', 30_000, 'alice beating again');
    const release = await t.run(['lease', 'release', 'pl-1', '--as', 'alice']);
    expect(release.code, release.stderr).toBe(3);
    expect(release.stderr).toContain('LEASE_NOT_FOUND');
    const live = JSON.parse(await t.ok('lease', 'list', '--json')) as Array<{ id: string; holder: string }>;
    expect(live.map((l) => [l.id, l.holder])).toEqual([[got.id, 'bob']]);
    const edit = await hook(t, 'alice', 'src/a.ts');
    expect(edit.code, edit.stderr).toBe(2);
    expect(edit.stderr).toMatch(/bob holds an exclusive lease/);
    expect(await t.ok('log')).toMatch(/alice lease expired src \(pl-1, dead\)/);
  }, 120_000);
});
