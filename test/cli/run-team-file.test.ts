/**
 * `mailroom run` refuses a bad team file before it creates anything: exit 2 naming the problem
 * (unknown owner, bad or duplicate member name, color outside the palette, a misspelled key such as
 * `blockedby` that would silently drop a dependency), and the store root stays empty, so fixing the
 * file and running again does not meet TEAM_EXISTS.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { listFiles, mailroom } from '../helpers/store-files.js';

let dir: TempDir;
beforeAll(async () => (dir = await makeTempDir()));
afterAll(() => dir.cleanup());

const CASES = [
  { what: 'a task owned by no member', file: { team: 't', members: [{ name: 'a' }], tasks: [{ subject: 'x', owner: 'zed' }] }, says: 'zed' },
  { what: 'a member name outside the pattern', file: { team: 't', members: [{ name: 'A_b' }] }, says: 'A_b' },
  { what: 'a reserved member name', file: { team: 't', members: [{ name: 'team-lead' }] }, says: 'team-lead' },
  { what: 'a member listed twice', file: { team: 't', members: [{ name: 'a' }, { name: 'a' }] }, says: 'twice' },
  { what: 'a color outside the palette', file: { team: 't', members: [{ name: 'a', color: 'mauve' }] }, says: 'mauve' },
  { what: 'a capability that is not a name', file: { team: 't', members: [{ name: 'a', capabilities: ['Code Review'] }] }, says: 'Code Review' },
  { what: 'a required capability that is not a name', file: { team: 't', members: [{ name: 'a' }], tasks: [{ subject: 'x', requires: 'a b' }] }, says: 'tasks.0.requires' },
  { what: 'a misspelled task key', file: { team: 't', members: [{ name: 'a' }], tasks: [{ key: 'one', subject: 'x' }, { subject: 'y', blockedby: ['one'] }] }, says: 'blockedby' },
  { what: 'an unknown top-level key', file: { team: 't', members: [{ name: 'a' }], taks: [] }, says: 'taks' },
];

describe('mailroom run with a bad team file', () => {
  it.each(CASES)('$what: exit 2 naming it, nothing created', async ({ what, file, says }) => {
    const path = join(dir.path, `${what.replace(/\W+/g, '-')}.json`);
    await writeFile(path, JSON.stringify(file));
    const root = join(dir.path, `root-${what.replace(/\W+/g, '-')}`);
    const run = await mailroom(root, 'run', path, '--timeout', '5000');
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(says);
    expect(await listFiles(root).catch(() => [])).toEqual([]);
  });
});
