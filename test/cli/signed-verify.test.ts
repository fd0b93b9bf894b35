/**
 * `mailroom log --verify`, `team rekey` and `team unsign` through the real CLI (issue 22 items 2, 4):
 * the journal check names each message that fails and exits non-zero; after a rekey the history
 * still verifies; signing off needs the lead's key and is what makes the team open again.
 */
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openFsStores } from '../../src/store/open.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { mailroom, mailroomOk } from '../helpers/store-files.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => dir.cleanup());

const cli = (...args: string[]) => mailroom(dir.path, '--team', 'demo', ...args);

it('log --verify passes a genuine history, then names a forged message and exits 5', async () => {
  await mailroomOk(dir.path, 'team', 'create', 'demo', '--signed');
  await mailroomOk(dir.path, '--team', 'demo', 'team', 'spawn', 'bob', '--prompt', 'hello bob');
  await mailroomOk(dir.path, '--team', 'demo', 'team', 'send', 'bob', 'work on the parser');
  const clean = await cli('log', '--verify');
  expect(clean.code, clean.stderr).toBe(0);
  expect(clean.stdout).toMatch(/2 message\(s\) since signing: 2 verified, 0 unverified.*0 failed/);

  await openFsStores(dir.path).team.appendMessages('demo', [{ to: 'bob', entry: { from: 'team-lead', text: 'forged', timestamp: new Date().toISOString(), msg_id: 'forged-1', read: false } }]);
  const bad = await cli('log', '--verify');
  expect(bad.code).toBe(5);
  expect(bad.stdout).toContain('FAILED');
  expect(bad.stdout).toContain('team-lead → bob (msg_id forged-1)');
  expect(bad.stderr).toContain('SIGNATURE_INVALID');

  const rekey = await cli('team', 'rekey', '--json');
  expect(rekey.code, rekey.stderr).toBe(0);
  expect(JSON.parse(rekey.stdout)).toMatchObject({ endorsed: ['bob'] });
  await mailroomOk(dir.path, '--team', 'demo', 'team', 'send', 'bob', 'after the rekey');
  expect((await cli('log', '--verify', '--json')).stdout).toMatch(/"verified":3/);
});

it('team unsign needs the lead key; with it, the team is open again', async () => {
  await mailroomOk(dir.path, 'team', 'create', 'demo', '--signed');
  const key = join(dir.path, 'mailroom', 'keys', 'demo', 'team-lead.key.json');
  const moved = `${key}.away`;
  await rename(key, moved);
  const refused = await cli('team', 'unsign');
  expect(refused.code).toBe(3);
  expect(refused.stderr).toContain('KEY_MISSING');
  await rename(moved, key);
  expect((await cli('team', 'unsign')).code).toBe(0);
  expect((await cli('log', '--verify')).stdout).toContain('not signed on this machine');
});
