/**
 * A lease's `--reason` through the real CLI: one rule for every surface (domain/path-leases.ts) —
 * at most 500 characters, no control characters (a newline would forge a `lease list` line or
 * plant text in another agent's LEASE_HELD) — refused with INVALID_ARGUMENT naming the limit.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { mailroom, mailroomOk } from '../helpers/store-files.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir();
  const repo = join(dir.path, 'repo');
  await mkdir(repo);
  await mailroomOk(dir.path, 'team', 'create', 'demo');
  await mailroomOk(dir.path, 'team', 'spawn', 'alice', '--cwd', repo);
});
afterEach(async () => {
  await dir.cleanup();
});

it('refuses a reason with control characters or over 500 characters, and keeps nothing', async () => {
  for (const reason of ['store\npl-9  mallory  exclusive  src/**', 'bell\u0007', 'x'.repeat(501)]) {
    const run = await mailroom(dir.path, 'lease', 'acquire', 'src/**', '--as', 'alice', '--reason', reason);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/INVALID_ARGUMENT: A lease's reason .*500 characters/);
  }
  expect((await mailroomOk(dir.path, 'lease', 'list')).stdout.trim()).toBe('No leases.');
  await mailroomOk(dir.path, 'lease', 'acquire', 'src/**', '--as', 'alice', '--reason', 'y'.repeat(500));
});

it('a non-member is MEMBER_NOT_FOUND for release and hook, not "nobody holds no lease"', async () => {
  await mailroomOk(dir.path, 'lease', 'acquire', 'src/**', '--as', 'alice');
  const release = await mailroom(dir.path, 'lease', 'release', 'pl-1', '--as', 'nobody');
  expect(release.code).toBe(3);
  expect(release.stderr).toMatch(/MEMBER_NOT_FOUND/);
  const guard = await mailroom(dir.path, '--team', 'demo', 'lease', 'guard', '--as', 'ghost');
  expect(guard.stderr).toMatch(/MEMBER_NOT_FOUND/);
});

it('a hand-edited lease whose expiry lies past the calendar is listed, and named in a conflict, without a RangeError', async () => {
  await mailroomOk(dir.path, 'lease', 'acquire', 'src/**', '--as', 'alice');
  const file = join(dir.path, 'teams', 'demo', 'mailroom-path-leases.json');
  const doc = JSON.parse(await readFile(file, 'utf8')) as { leases: Array<{ expiresAt: number }> };
  doc.leases[0]!.expiresAt = 1e20;
  await writeFile(file, JSON.stringify(doc));
  const list = await mailroomOk(dir.path, 'lease', 'list');
  expect(list.stdout).toContain('until 100000000000000000000 (epoch ms, past the calendar)');
  await mailroomOk(dir.path, 'team', 'spawn', 'bob', '--cwd', join(dir.path, 'repo'));
  const held = await mailroom(dir.path, 'lease', 'acquire', 'src/a.ts', '--as', 'bob');
  expect(held.code).toBe(4);
  expect(held.stderr).toContain('past the calendar');
  expect(held.stderr).not.toContain('RangeError');
});
