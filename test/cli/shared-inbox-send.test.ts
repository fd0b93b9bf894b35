/**
 * Two members whose names Claude Code's file-name rule maps to one inbox file (`café` and `cafè` →
 * `inboxes/caf-.json`; a config.json Claude Code or a person wrote — mailroom's own names never
 * collide, docs/format.md §7): `team show` flags them and doctor reports `inbox-collision`, and a
 * send to either is refused with INVALID_NAME naming both and the fix, nothing written — it used to
 * land in the file both read, so each read the other's mail. A broadcast is refused whole, as for
 * a name too long; other members are served as before.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { listFiles, mailroom, mailroomOk, snapshotBytes } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir();
  await mailroomOk(dir.path, 'team', 'create', 'demo');
  await mailroomOk(dir.path, 'team', 'spawn', 'alice');
  const path = join(dir.path, 'teams', 'demo', 'config.json');
  const config = JSON.parse(await readFile(path, 'utf8')) as { members: Array<Record<string, unknown>> };
  for (const name of ['caf\u00e9', 'caf\u00e8']) config.members.push({ ...config.members[1], name, agentId: `${name}@demo` });
  await writeFile(path, JSON.stringify(config, null, 2));
});
afterEach(() => dir.cleanup());

it('a send to either of two members sharing one inbox file is INVALID_NAME naming both; nothing is written', async () => {
  const before = await snapshotBytes(dir.path);
  for (const to of ['caf\u00e8', 'caf\u00e9']) {
    const run = await mailroom(dir.path, 'team', 'send', to, 'for one of them only');
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('INVALID_NAME');
    expect(run.stderr).toContain('"caf\u00e9" and "caf\u00e8"');
    expect(run.stderr).toContain('caf-.json');
  }
  expect((await mailroom(dir.path, 'team', 'broadcast', 'to all')).code).toBe(2);
  expect(await snapshotBytes(dir.path)).toEqual(before);
  expect((await listFiles(join(dir.path, 'teams', 'demo'))).filter((f) => f.startsWith('inboxes/'))).toEqual([]);
  await mailroomOk(dir.path, 'team', 'send', 'alice', 'alice is served');
});
