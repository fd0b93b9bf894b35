/**
 * `team spawn --cwd` (fresh-user trial): a directory that does not exist gave the process backend
 * `INTERNAL: … spawn /usr/bin/node ENOENT` and left the member registered (a retry then failed
 * with MEMBER_EXISTS); the in-process registration accepted it silently. It is refused before
 * anything is written, naming the path, and a retry with a real directory works.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openFsStores } from '../../src/store/open.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { mailroom, mailroomOk } from '../helpers/store-files.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir();
  await mailroomOk(dir.path, 'team', 'create', 'demo');
});
afterEach(async () => {
  await mailroom(dir.path, 'team', 'stop', 'x', '--force');
  await dir.cleanup();
});

async function memberNames(): Promise<string[]> {
  return (await openFsStores(dir.path).team.readConfig('demo')).members.map((m) => m.name);
}

describe.each([['in-process'], ['process']])('--backend %s', (backend) => {
  it('refuses a --cwd that does not exist, registering nothing, and a retry with a directory works', async () => {
    const missing = join(dir.path, 'nonexistent', 'dir');
    const run = await mailroom(dir.path, 'team', 'spawn', 'x', '--cwd', missing, '--backend', backend);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('INVALID_ARGUMENT');
    expect(run.stderr).toContain(missing);
    expect(run.stderr).not.toContain('ENOENT');
    expect(await memberNames()).toEqual(['team-lead']);

    const retry = await mailroom(dir.path, 'team', 'spawn', 'x', '--cwd', dir.path, '--backend', backend);
    expect(retry.code, retry.stderr).toBe(0);
    expect((await openFsStores(dir.path).team.readConfig('demo')).members[1]).toMatchObject({ name: 'x', cwd: dir.path });
  });

  it('refuses a --cwd that is a file', async () => {
    const file = join(dir.path, 'notes.txt');
    await writeFile(file, 'x');
    const run = await mailroom(dir.path, 'team', 'spawn', 'x', '--cwd', file, '--backend', backend);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`${file} is not a directory`);
    expect(await memberNames()).toEqual(['team-lead']);
  });
});
