/**
 * `lease release <pattern>` (trial 2, item 2): the exact path pattern a member leased releases that
 * lease as its `pl-N` id does; a pattern two leases name is refused listing their ids; one no lease
 * names says to give the id and how to list them.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { mailroom, mailroomOk } from '../helpers/store-files.js';

let dir: TempDir;
let repo: string;
beforeEach(async () => {
  dir = await makeTempDir();
  repo = join(dir.path, 'repo');
  await mkdir(join(repo, 'src', 'store'), { recursive: true });
  await mkdir(join(dir.path, 'other'), { recursive: true });
  await mailroomOk(dir.path, 'team', 'create', 'demo');
  await mailroomOk(dir.path, 'team', 'spawn', 'dave', '--cwd', repo);
});
afterEach(async () => {
  await dir.cleanup();
});

it('releases the lease by the exact pattern the member acquired', async () => {
  await mailroomOk(dir.path, 'lease', 'acquire', 'src/store/**', '--as', 'dave');
  const released = await mailroom(dir.path, 'lease', 'release', 'src/store/**', '--as', 'dave');
  expect(released.stderr).toBe('');
  expect(released.code).toBe(0);
  expect(released.stdout).toMatch(/released pl-1 {2}dave .*src\/store\/\*\*/);
  expect((await mailroomOk(dir.path, 'lease', 'list')).stdout.trim()).toBe('No leases.');
});

it('a pattern no lease of the member names: LEASE_NOT_FOUND saying to give the id, from lease list', async () => {
  await mailroomOk(dir.path, 'lease', 'acquire', 'src/store/**', '--as', 'dave');
  const r = await mailroom(dir.path, 'lease', 'release', 'src/**', '--as', 'dave');
  expect(r.code).toBe(3);
  expect(r.stderr).toContain('LEASE_NOT_FOUND');
  expect(r.stderr).toContain('pl-1 (src/store/**)');
  expect(r.stderr).toMatch(/Give the lease id .*`mailroom .*lease list`/);
  expect((await mailroomOk(dir.path, 'lease', 'list')).stdout).toContain('pl-1');
});

it('a pattern two leases name: refused listing both ids, neither released', async () => {
  await mailroomOk(dir.path, 'lease', 'acquire', 'src/**', '--as', 'dave');
  await mailroomOk(dir.path, 'lease', 'acquire', 'src/**', '--as', 'dave', '--repo', join(dir.path, 'other'));
  const r = await mailroom(dir.path, 'lease', 'release', 'src/**', '--as', 'dave');
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('INVALID_ARGUMENT');
  expect(r.stderr).toMatch(/pl-1 .*pl-2 /);
  const list = (await mailroomOk(dir.path, 'lease', 'list')).stdout;
  expect(list).toContain('pl-1');
  expect(list).toContain('pl-2');
});
