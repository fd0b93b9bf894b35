/**
 * Case 05 (../shared/cases/05-unknown-recipient.md): team `t` has members team-lead and researcher
 * (agentType general-purpose). `mailroom team send alice "hi"` and `mailroom team send
 * general-purpose "hi"` both exit non-zero with an error naming the unknown member and listing the
 * members; no inboxes/alice.json or inboxes/general-purpose.json is created.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFiles, mailroom, mailroomOk, snapshotBytes } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let tmp: TempDir;
let root: string;
beforeAll(async () => {
  tmp = await makeTempDir('mailroom-case05-');
  root = tmp.path;
  await mailroomOk(root, 'team', 'create', 't');
  await mailroomOk(root, 'team', 'spawn', 'researcher', '--type', 'general-purpose');
});
afterAll(() => tmp.cleanup());

describe.each(['alice', 'general-purpose'])('team send %s "hi"', (name) => {
  it('exits non-zero naming the unknown member and listing the members, and writes nothing', async () => {
    const before = await snapshotBytes(root);
    const run = await mailroom(root, 'team', 'send', name, 'hi');
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('MEMBER_NOT_FOUND');
    expect(run.stderr).toContain(`"${name}"`);
    expect(run.stderr).toContain('Members: team-lead, researcher');
    expect(await snapshotBytes(root)).toEqual(before);
    expect(await listFiles(join(root, 'teams'))).not.toContain(`t/inboxes/${name}.json`);
  });

  it('--json gives the code and the member list', async () => {
    const run = await mailroom(root, 'team', 'send', name, 'hi', '--json');
    expect(run.code).toBe(3);
    const { error } = JSON.parse(run.stderr) as { error: { code: string; details: { name: string; members: string[] } } };
    expect(error.code).toBe('MEMBER_NOT_FOUND');
    expect(error.details).toMatchObject({ name, members: ['team-lead', 'researcher'] });
  });
});

it('a structured message to an unknown member is refused the same way', async () => {
  const before = await snapshotBytes(root);
  const run = await mailroom(root, 'team', 'send', 'alice', '--shutdown-request', '--reason', 'done');
  expect(run.code).toBe(3);
  expect(run.stderr).toContain('"alice"');
  expect(await snapshotBytes(root)).toEqual(before);
});

it('the real member still receives (the refusal is about the name, not the team)', async () => {
  await mailroomOk(root, 'team', 'send', 'researcher', 'hi');
  expect(await listFiles(join(root, 'teams/t/inboxes'))).toEqual(['researcher.json']);
});
