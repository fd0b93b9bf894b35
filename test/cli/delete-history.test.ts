/**
 * `team delete` moves the team's journal and inbox archive aside: a team re-created under the same
 * name starts with an empty history, and the old history stays on disk under mailroom/deleted/.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { mailroomOk } from '../helpers/store-files.js';

let dir: TempDir;
beforeAll(async () => {
  dir = await makeTempDir();
});
afterAll(() => dir.cleanup());

describe('team delete and the journal', () => {
  it('a re-created team does not show the deleted team’s messages; the old journal is kept aside', async () => {
    await mailroomOk(dir.path, 'team', 'create', 'demo');
    await mailroomOk(dir.path, 'team', 'spawn', 'alice');
    await mailroomOk(dir.path, 'team', 'send', 'alice', 'OLD-SECRET-PLAN');
    await mailroomOk(dir.path, 'team', 'delete', 'demo');
    await mailroomOk(dir.path, 'team', 'create', 'demo');
    const log = await mailroomOk(dir.path, 'log', 'demo');
    expect(log.stdout).not.toContain('OLD-SECRET-PLAN');
    const deleted = await readdir(join(dir.path, 'mailroom', 'deleted'));
    expect(deleted).toHaveLength(1);
    expect(deleted[0]).toMatch(/^demo-\d{4}-/);
    expect(await readFile(join(dir.path, 'mailroom', 'deleted', deleted[0]!, 'journal.ndjson'), 'utf8')).toContain('OLD-SECRET-PLAN');
  });
});
