/**
 * fixtures/broken: files mailroom must not trust. A read that needs a broken file fails with
 * FILE_CORRUPT (exit 7) naming it; no write ever replaces it (its bytes stay the same); listings
 * skip it with a warning; odd but valid content (unknown protocol types, `__proto__` keys) is read
 * and kept as plain data.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TempDir } from '../helpers/temp-dir.js';
import type { CliRun } from '../helpers/cli.js';
import { runCliBatch } from '../helpers/cli-batch.js';
import { FIXTURES, copyTree, keyPaths, mailroom, mailroomOk, readJson, snapshotBytes } from '../helpers/store-files.js';

let dir: TempDir;
let root: string;
const path = (p: string) => join(root, p);

beforeAll(async () => {
  dir = await copyTree(join(FIXTURES, 'broken'));
  root = dir.path;
});
afterAll(() => dir.cleanup());

/** Checks a run that must have failed with FILE_CORRUPT naming `file`, on one line. */
function expectCorruptRun(run: CliRun, file: string): void {
  expect(run.code, run.stderr).toBe(7);
  expect(run.stderr).toContain('FILE_CORRUPT');
  expect(run.stderr).toContain(path(file));
  expect(run.stderr.trimEnd().split('\n'), 'one line, not a dump').toHaveLength(1);
}

/** Every read and write that meets a broken file: [what, the file, the command]. */
const CORRUPT: [string, string, string[]][] = [
  ['read: truncated inbox', 'teams/bad-inboxes/inboxes/alice.json', ['inbox', 'alice', '--team', 'bad-inboxes']],
  ['read: truncated inbox, --raw', 'teams/bad-inboxes/inboxes/alice.json', ['inbox', 'alice', '--raw', '--team', 'bad-inboxes']],
  ['read: inbox that is not an array', 'teams/bad-inboxes/inboxes/bob.json', ['inbox', 'bob', '--json', '--team', 'bad-inboxes']],
  // `team show` over a truncated inbox serves the team and flags the member (issue 9 item 6; below).
  ['read: truncated inbox, --json', 'teams/bad-inboxes/inboxes/alice.json', ['inbox', 'alice', '--json', '--team', 'bad-inboxes']],
  ['read: config with wrong types', 'teams/bad-config/config.json', ['team', 'show', 'bad-config']],
  ['read: config with wrong types, inbox', 'teams/bad-config/config.json', ['inbox', '--team', 'bad-config']],
  ['read: task whose id differs from its file name', 'tasks/bad-tasks/2.json', ['task', 'show', '2', '--team', 'bad-tasks']],
  ['read: task with an unknown status', 'tasks/bad-tasks/6.json', ['task', 'show', '6', '--team', 'bad-tasks']],
  ['write: send to a truncated inbox', 'teams/bad-inboxes/inboxes/alice.json', ['team', 'send', 'alice', 'hi', '--team', 'bad-inboxes']],
  ['write: send to a non-array inbox', 'teams/bad-inboxes/inboxes/bob.json', ['team', 'send', 'bob', 'hi', '--team', 'bad-inboxes']],
  ['write: mark read in a truncated inbox', 'teams/bad-inboxes/inboxes/alice.json', ['inbox', 'alice', '--mark-read', '--team', 'bad-inboxes']],
  ['write: broadcast that meets a truncated inbox', 'teams/bad-inboxes/inboxes/alice.json', ['team', 'broadcast', 'hi', '--team', 'bad-inboxes']],
  ['write: spawn into a config with wrong types', 'teams/bad-config/config.json', ['team', 'spawn', 'dave', '--team', 'bad-config']],
  ['write: send in a team whose config has wrong types', 'teams/bad-config/config.json', ['team', 'send', 'team-lead', 'hi', '--team', 'bad-config']],
  ['write: delete a team whose config has wrong types', 'teams/bad-config/config.json', ['team', 'delete', 'bad-config']],
  ['write: update a misnamed task', 'tasks/bad-tasks/2.json', ['task', 'update', '2', '--status', 'completed', '--team', 'bad-tasks']],
  ['write: claim a misnamed task', 'tasks/bad-tasks/2.json', ['task', 'claim', '2', '--as', 'alice', '--team', 'bad-tasks']],
  ['write: delete a misnamed task', 'tasks/bad-tasks/2.json', ['task', 'delete', '2', '--team', 'bad-tasks']],
  ['write: depend on a misnamed task', 'tasks/bad-tasks/2.json', ['task', 'update', '1', '--add-blocked-by', '2', '--team', 'bad-tasks']],
  ['write: update a task with an unknown status', 'tasks/bad-tasks/6.json', ['task', 'update', '6', '--subject', 'x', '--team', 'bad-tasks']],
];

describe('every read and write that meets a broken file fails with FILE_CORRUPT naming it, changing nothing', () => {
  let runs: CliRun[];
  let before: Map<string, Buffer>;
  let after: Map<string, Buffer>;
  beforeAll(async () => {
    before = await snapshotBytes(root);
    // One process runs them all through the CLI's entry main() (cli-batch); a few run the binary below.
    runs = await runCliBatch(CORRUPT.map(([, , args]) => ['--root', root, ...args]));
    after = await snapshotBytes(root);
  });

  it.each(CORRUPT.map((c, i) => [c[0], c[1], i] as const))('%s', (_what, file, i) => {
    expectCorruptRun(runs[i]!, file);
  });

  it('not one byte of any file changed', () => {
    expect(after).toEqual(before);
  });

  it.each([0, 8, 6].map((i) => [CORRUPT[i]![0], i] as const))('the binary too: %s', async (_what, i) => {
    const [, file, args] = CORRUPT[i]!;
    const run = await mailroom(root, ...args);
    expectCorruptRun(run, file);
    expect(await snapshotBytes(root)).toEqual(before);
  });

  it('says what is wrong: the fields of a config, the id of a misnamed task', () => {
    expect(runs[4]!.stderr).toMatch(/createdAt: .*expected number/);
    expect(runs[4]!.stderr).toMatch(/members: .*expected array/);
    expect(runs[6]!.stderr).toContain('id "3"');
  });
});

it('team show over a truncated inbox serves the team, flags the member with FILE_CORRUPT naming the file, and changes nothing', async () => {
  const before = await snapshotBytes(root);
  const run = await mailroomOk(root, 'team', 'show', 'bad-inboxes');
  expect(run.stdout).toMatch(/alice .* — cannot be served: FILE_CORRUPT/);
  expect(run.stdout).toContain(path('teams/bad-inboxes/inboxes/alice.json'));
  expect(await snapshotBytes(root)).toEqual(before);
});

describe('listings skip broken files with a warning naming them', () => {
  it('team list (the readable teams on stdout; the team with a broken config named once on stderr, exit 7: issue 23, session 18)', async () => {
    const run = await mailroom(root, 'team', 'list');
    expect(run.code).toBe(7);
    expect(run.stdout.split('\n').slice(0, 3).join('\n')).toBe('bad-inboxes\nbad-tasks\nproto');
    expect(run.stdout).not.toContain('bad-config');
    expect(run.stderr).toContain(`team bad-config: ${path('teams/bad-config/config.json')}`);
    expect(run.stderr.split(path('teams/bad-config/config.json'))).toHaveLength(2);
  });

  it('task list', async () => {
    const run = await mailroomOk(root, 'task', 'list', '--team', 'bad-tasks');
    expect(run.stdout).toBe(['ID  STATUS   OWNER  BOARD  SUBJECT', '#1  pending  -      ready  Valid task', '#4  pending  -      ready  Task with prototype keys', ''].join('\n'));
    expect(run.stderr).toContain(path('tasks/bad-tasks/2.json'));
    expect(run.stderr).toContain(path('tasks/bad-tasks/6.json'));
  });
});

describe('writes that can proceed leave broken files alone', () => {
  it('task add skips past the ids of broken task files instead of reusing them', async () => {
    const before = await snapshotBytes(root);
    const run = await mailroomOk(root, 'task', 'add', 'Fresh task', '--team', 'bad-tasks');
    expect(run.stdout).toBe('Created task #7: Fresh task\n');
    const after = await snapshotBytes(root);
    for (const [file, bytes] of before) expect(after.get(file), file).toEqual(bytes);
  });
});

describe('odd but valid content is read, shown and kept as data', () => {
  it('unknown protocol types pass through; known types with bad fields are flagged; entries that are not entries are hidden', async () => {
    const [plain, raw] = await Promise.all([mailroomOk(root, 'inbox', '--team', 'bad-inboxes'), mailroomOk(root, 'inbox', '--raw', '--team', 'bad-inboxes')]);
    const lines = plain.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toContain('alice (unread): [join_request] {"type":"join_request"');
    expect(lines[1]).toContain('bob (unread): [idle_notification, invalid: idleReason:');
    expect(lines[2]).toContain('carol (unread): [shutdown_rejected, invalid: reason:');
    expect(lines[3]).toContain('alice (unread): Plain text with a prototype key in the entry.');
    expect(raw.stdout).toContain('{"type":"idle_notification","from":"bob","timestamp":"2026-01-01T00:00:03.000Z","idleReason":"sleepy"}');
  });

  it('__proto__ keys stay own data keys through reads and rewrites, and pollute nothing', async () => {
    const show = JSON.parse((await mailroomOk(root, 'team', 'show', 'proto', '--json')).stdout) as { members: { isActive?: boolean }[] };
    expect(show.members[0]!.isActive).toBeUndefined();

    const configBefore = await readFile(path('teams/proto/config.json'), 'utf8');
    await mailroomOk(root, 'team', 'spawn', 'dave', '--team', 'proto');
    const configAfter = await readFile(path('teams/proto/config.json'), 'utf8');
    expect(configAfter).toContain('"__proto__": {\n    "polluted": "yes"\n  }');
    expect(configAfter).toContain('"__proto__": {\n        "isActive": true\n      }');
    expect(keyPaths(JSON.parse(configAfter)).filter((k) => !k.startsWith('members.1'))).toEqual(keyPaths(JSON.parse(configBefore)));

    const taskBefore = JSON.parse(await readFile(path('tasks/bad-tasks/4.json'), 'utf8')) as Record<string, unknown>;
    await mailroomOk(root, 'task', 'update', '4', '--subject', 'Renamed', '--metadata', 'priority=low', '--team', 'bad-tasks');
    const taskAfter = JSON.parse(await readFile(path('tasks/bad-tasks/4.json'), 'utf8')) as Record<string, unknown>;
    expect(keyPaths(taskAfter)).toEqual(keyPaths(taskBefore));
    expect(Object.getOwnPropertyDescriptor(taskAfter, '__proto__')?.value).toEqual({ owner: 'mallory', polluted: 'yes' });
    const metadata = taskAfter.metadata as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(metadata, '__proto__')?.value).toEqual({ polluted: 'yes' });
    expect(metadata.priority).toBe('low');
    const view = JSON.parse((await mailroomOk(root, 'task', 'show', '4', '--json', '--team', 'bad-tasks')).stdout) as { task: { owner?: string } };
    expect(view.task.owner).toBeUndefined();

    const inboxBefore = await readJson<unknown[]>(path('teams/bad-inboxes/inboxes/team-lead.json'));
    await mailroomOk(root, 'inbox', '--mark-read', '--team', 'bad-inboxes');
    const inboxAfter = await readJson<Record<string, unknown>[]>(path('teams/bad-inboxes/inboxes/team-lead.json'));
    expect(keyPaths(inboxAfter)).toEqual(keyPaths(inboxBefore));
    expect(inboxAfter.map((e) => e.read)).toEqual([true, true, true, true, false]);
    expect(Object.getOwnPropertyDescriptor(inboxAfter[3], '__proto__')?.value).toEqual({ read: true, polluted: 'yes' });
  });
});
