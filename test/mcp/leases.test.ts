/**
 * Path leases over MCP (issue 26 item 3), on both backends, with the real `mailroom mcp` binary and
 * the official SDK client: lease_acquire / lease_list / lease_release as two members; a conflict is
 * a LEASE_HELD tool error naming the holder, its paths, reason and expiry; two members racing for
 * one glob: exactly one wins, every round; a release of a lease one does not hold is
 * LEASE_NOT_FOUND; `force` is the lead's only.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PathLease } from '../../src/protocol/path-lease.js';
import { runCli } from '../helpers/cli.js';
import { dataOf, errorOf, startMcpMember, type McpMember } from '../helpers/mcp-client.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { cleanEnv } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let redis: RedisServer;
let host: TempDir;
beforeAll(async () => {
  redis = await startRedis();
  host = await makeTempDir('mailroom-mcp-leases-');
});
afterAll(async () => {
  await redis?.stop();
  await host?.cleanup();
});

const backends = [
  { name: 'filesystem', args: () => ['--root', join(host.path, 'fs')] },
  { name: 'redis', args: () => ['--store', redis.url, '--root', join(host.path, 'redis-host')] },
];

describe.each(backends)('lease tools over mailroom mcp: $name', { timeout: 120_000 }, (b) => {
  const team = `leases-${b.name}`;
  let repo: string;
  let alice: McpMember;
  let bob: McpMember;
  const cli = async (...args: string[]) => {
    const run = await runCli([...b.args(), ...args], cleanEnv());
    expect(run.code, run.stderr).toBe(0);
    return run;
  };

  beforeAll(async () => {
    repo = join(host.path, `repo-${b.name}`);
    await mkdir(join(repo, 'src', 'store'), { recursive: true });
    await cli('team', 'create', team);
    // Registered with the repository as their cwd: their leases are relative to it.
    for (const m of ['alice', 'bob']) await cli('--team', team, 'team', 'spawn', m, '--cwd', repo);
    const started = await Promise.all(['alice', 'bob'].map((as) => startMcpMember([...b.args(), '--team', team, '--as', as], cleanEnv() as Record<string, string>)));
    alice = started[0]!;
    bob = started[1]!;
  });
  afterAll(async () => {
    await Promise.all([alice?.close(), bob?.close()]);
  });

  it('lists the three tools', async () => {
    const names = (await alice.client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['lease_acquire', 'lease_release', 'lease_list']));
  });

  it('acquires, refuses an overlapping lease with LEASE_HELD naming the holder, lists and releases', async () => {
    const { lease } = dataOf<{ lease: PathLease }>(await alice.call('lease_acquire', { paths: ['src/**'], reason: 'store refactor', ttl_ms: 600_000 }));
    expect(lease).toMatchObject({ holder: 'alice', repo, paths: ['src/**'], shared: false, reason: 'store refactor', ttlMs: 600_000 });
    expect(lease.id).toBe(`pl-${lease.token}`);

    const held = errorOf(await bob.call('lease_acquire', { paths: ['src/store/a.ts', 'README.md'] }));
    expect(held.code).toBe('LEASE_HELD');
    expect(held.message).toContain(`alice holds an exclusive lease ${lease.id} on src/** (store refactor), until ${new Date(lease.expiresAt).toISOString()}`);
    expect(held.details).toMatchObject({ holders: [{ id: lease.id, holder: 'alice', paths: ['src/**'], reason: 'store refactor', expiresAt: lease.expiresAt }] });
    // All or nothing: README.md was not leased either.
    expect(dataOf<{ leases: PathLease[] }>(await bob.call('lease_list', { mine: true })).leases).toEqual([]);

    const all = dataOf<{ leases: PathLease[] }>(await bob.call('lease_list')).leases;
    expect(all.map((l) => [l.id, l.holder])).toEqual([[lease.id, 'alice']]);

    // Not bob's to release; the lead's --force is not bob's either.
    expect(errorOf(await bob.call('lease_release', { ids: [lease.id] })).code).toBe('LEASE_NOT_FOUND');
    expect(errorOf(await bob.call('lease_acquire', { paths: ['src/store/a.ts'], force: true })).code).toBe('NOT_PERMITTED');

    const { released } = dataOf<{ released: PathLease[] }>(await alice.call('lease_release', { ids: [lease.id] }));
    expect(released.map((l) => l.id)).toEqual([lease.id]);
    // The id is gone for good: a second release of it is refused.
    expect(errorOf(await alice.call('lease_release', { ids: [lease.id] })).code).toBe('LEASE_NOT_FOUND');
    const bobs = dataOf<{ lease: PathLease }>(await bob.call('lease_acquire', { paths: ['src/store/a.ts'] })).lease;
    expect(bobs.token).toBeGreaterThan(lease.token);
    expect(dataOf<{ released: PathLease[] }>(await bob.call('lease_release', { all: true })).released.map((l) => l.id)).toEqual([bobs.id]);
  });

  it('shared leases go together; an exclusive one over them is refused', async () => {
    const a = dataOf<{ lease: PathLease }>(await alice.call('lease_acquire', { paths: ['docs'], shared: true })).lease;
    const b2 = dataOf<{ lease: PathLease }>(await bob.call('lease_acquire', { paths: ['docs/x.md'], shared: true })).lease;
    expect(errorOf(await bob.call('lease_acquire', { paths: ['docs/**'] })).code).toBe('LEASE_HELD');
    await alice.call('lease_release', { ids: [a.id] });
    await bob.call('lease_release', { ids: [b2.id] });
  });

  it('two members racing for one glob: exactly one wins, every round', async () => {
    for (let round = 0; round < 6; round++) {
      const results = await Promise.all([alice, bob].map((m) => m.call('lease_acquire', { paths: [`lib${round}/**`] })));
      const won = results.filter((r) => !r.isError);
      expect(won).toHaveLength(1);
      const winner = dataOf<{ lease: PathLease }>(won[0]!).lease;
      const lost = errorOf(results.find((r) => r.isError)!);
      expect(lost.code).toBe('LEASE_HELD');
      expect(lost.details).toMatchObject({ holders: [{ id: winner.id, holder: winner.holder }] });
      await (winner.holder === 'alice' ? alice : bob).call('lease_release', { ids: [winner.id] });
    }
  });
});
