/**
 * A lease path's size (docs/leases.md "Paths"): one longer than PATH_MAX (4096 bytes) names no
 * file, and resolving it cost time quadratic in its length (a 40 KB path took 21 s of the lease
 * file's lock on a loaded machine), so it is refused up front with INVALID_ARGUMENT naming the limit,
 * on every surface (the use case), and nothing is leased.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { acquireLease, listLeases } from '../../../src/core/leases/path-leases.js';
import { MAX_LEASE_PATH_BYTES, MAX_LEASE_TTL_MS } from '../../../src/domain/path-leases.js';
import { openFsStores } from '../../../src/store/open.js';
import { makeTeam } from '../../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { thrownAsync } from '../../helpers/thrown.js';

let dir: TempDir;
let repo: string;
beforeEach(async () => {
  dir = await makeTempDir();
  repo = join(dir.path, 'repo');
  await mkdir(repo);
  await makeTeam(dir.path, 't', ['alice']);
});
afterEach(() => dir.cleanup());

const lease = (path: string) => acquireLease({ root: openFsStores(dir.path), team: 't', as: 'alice', paths: [path], repo, cwd: repo });

it('refuses a path over 4096 bytes with INVALID_ARGUMENT naming the limit, leasing nothing', async () => {
  expect(MAX_LEASE_PATH_BYTES).toBe(4096);
  const long = `${'a/'.repeat(2048)}b`; // 4097 bytes
  const err = await thrownAsync(() => lease(long));
  expect(err).toMatchObject({ code: 'INVALID_ARGUMENT' });
  expect((err as Error).message).toMatch(/4097 bytes.*at most 4096/);
  const multi = await thrownAsync(() => lease(`${'é'.repeat(2048)}x`)); // 2049 characters, 4097 bytes in UTF-8
  expect(multi).toMatchObject({ code: 'INVALID_ARGUMENT' });
  expect(await listLeases({ root: openFsStores(dir.path), team: 't' })).toEqual([]);
});

it('leases a path of exactly 4096 bytes', async () => {
  const edge = `${'a/'.repeat(2047)}bc`; // 4096 bytes
  expect((await lease(edge)).paths).toEqual([edge]);
});

it('refuses a TTL over 7 days with INVALID_ARGUMENT naming the limit, leasing nothing (MCP and the runtime pass ttlMs as given)', async () => {
  // Number.MAX_SAFE_INTEGER ms put expiresAt past the last instant a Date can hold: every later
  // conflicting acquire (and the lease's printing) then failed with a bare RangeError.
  expect(MAX_LEASE_TTL_MS).toBe(7 * 24 * 3_600_000);
  for (const ttlMs of [Number.MAX_SAFE_INTEGER, MAX_LEASE_TTL_MS + 1]) {
    const err = await thrownAsync(() => acquireLease({ root: openFsStores(dir.path), team: 't', as: 'alice', paths: ['x'], ttlMs, repo, cwd: repo }));
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect((err as Error).message).toMatch(/at most 7 days/);
  }
  expect(await listLeases({ root: openFsStores(dir.path), team: 't' })).toEqual([]);
  expect((await acquireLease({ root: openFsStores(dir.path), team: 't', as: 'alice', paths: ['x'], ttlMs: MAX_LEASE_TTL_MS, repo, cwd: repo })).ttlMs).toBe(MAX_LEASE_TTL_MS);
});

it('refuses a path with a control character (a newline forged a `lease list` line), naming the problem; nothing leased', async () => {
  for (const path of ['x\npl-9  bob  exclusive  **  until 2099-01-01T00:00:00.000Z', 'a\tb', 'esc\u001b[31m', 'nul\u0000']) {
    const err = await thrownAsync(() => lease(path));
    expect(err, JSON.stringify(path)).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect((err as Error).message).toMatch(/control character/);
  }
  expect(await listLeases({ root: openFsStores(dir.path), team: 't' })).toEqual([]);
});
