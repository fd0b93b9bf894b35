/**
 * A member who left, as the store remembers it (new-user trial, session 17): `team send dave`
 * after dave left suggested `team spawn dave` as for a name never seen; `task claim` of a completed
 * task whose owner left said "already claimed by carol". Now the refusal says dave left (the
 * journal's `member left` event) and then the fix, and a completed task is called completed, by
 * whom. Nothing is written by a refused call. Real CLI processes.
 */
import { describe, expect, it } from 'vitest';
import { cliRootForFile, mailroom, mailroomOk, snapshotBytes } from '../helpers/store-files.js';
import { startRedis } from '../helpers/redis-server.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const root = cliRootForFile(
  ['team', 'create', 'demo'],
  ...['carol', 'dave', 'erin'].map((name) => ['team', 'spawn', name]),
  ['task', 'add', 'first'],
  ['task', 'claim', '1', '--as', 'carol'],
  ['task', 'update', '1', '--status', 'completed', '--as', 'carol'],
  ['team', 'send', 'dave', 'unread when he left'],
  ['team', 'stop', 'carol', '--force'],
  ['team', 'stop', 'dave', '--force'],
);

describe('a member who left', () => {
  it('team send to him: MEMBER_NOT_FOUND saying he left, then how to bring him back; nothing written', async () => {
    const before = await snapshotBytes(root());
    const run = await mailroom(root(), 'team', 'send', 'dave', 'hi');
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/^mailroom: MEMBER_NOT_FOUND: dave left team "demo" \(at \d{4}-\d\d-\d\dT[\d:.]+Z\), so nothing can go to or come from dave now\. Members: team-lead, erin\. To bring dave back, run `mailroom (--root \S+ )?team spawn dave`/);
    expect(run.stderr).not.toContain('No recipient named');
    expect(await snapshotBytes(root())).toEqual(before);
  });

  it('with --json the code stays MEMBER_NOT_FOUND and details carry departedAt', async () => {
    const run = await mailroom(root(), '--json', 'team', 'send', 'dave', 'hi');
    const error = (JSON.parse(run.stderr) as { error: { code: string; details: Record<string, unknown> } }).error;
    expect(error.code).toBe('MEMBER_NOT_FOUND');
    expect(error.details).toMatchObject({ name: 'dave', team: 'demo' });
    expect(typeof error.details.departedAt).toBe('string');
  });

  it('as a sender, in a broadcast, and as a claimant: the same', async () => {
    for (const args of [['team', 'send', 'erin', 'hi', '--from', 'dave'], ['team', 'broadcast', 'hi', '--from', 'dave'], ['task', 'claim', '--next', '--as', 'carol']]) {
      const run = await mailroom(root(), ...args);
      expect(run.code, args.join(' ')).toBe(3);
      expect(run.stderr, args.join(' ')).toMatch(/MEMBER_NOT_FOUND: (dave|carol) left team "demo"/);
    }
  });

  it('a name that never was a member keeps the plain refusal', async () => {
    const run = await mailroom(root(), 'team', 'send', 'zed', 'hi');
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('No recipient named "zed" in team "demo"');
  });

  it('a name that left and was spawned again is a member again', async () => {
    await mailroomOk(root(), 'team', 'spawn', 'dave');
    await mailroomOk(root(), 'team', 'send', 'dave', 'welcome back');
    await mailroomOk(root(), 'team', 'stop', 'dave', '--force');
  });
});

describe('task claim of a completed task', () => {
  it('says completed and by whom (the owner left), not "already claimed"; exit and code as before', async () => {
    const before = await snapshotBytes(root());
    const run = await mailroom(root(), 'task', 'claim', '1', '--as', 'erin');
    expect(run.code).toBe(5);
    expect(run.stderr).toBe('mailroom: TASK_ALREADY_CLAIMED: Task #1 is already completed (by carol): there is nothing left to claim. (reason: already_claimed)\n');
    expect(await snapshotBytes(root())).toEqual(before);
  });
});

describe('on a Redis store', () => {
  it('the same: a departed recipient named as such, a completed task called completed', async () => {
    const redis = await startRedis();
    const local = await makeTempDir();
    try {
      const on = ['--store', redis.url, '--allow-volatile'];
      await mailroomOk(local.path, ...on, 'team', 'create', 'rt');
      await mailroomOk(local.path, ...on, 'team', 'spawn', 'dave');
      await mailroomOk(local.path, ...on, 'team', 'spawn', 'erin');
      await mailroomOk(local.path, ...on, 'task', 'add', 'first');
      await mailroomOk(local.path, ...on, 'task', 'claim', '1', '--as', 'dave');
      await mailroomOk(local.path, ...on, 'task', 'update', '1', '--status', 'completed', '--as', 'dave');
      await mailroomOk(local.path, ...on, 'team', 'stop', 'dave', '--force');
      const send = await mailroom(local.path, ...on, 'team', 'send', 'dave', 'hi');
      expect(send.code).toBe(3);
      expect(send.stderr).toMatch(/MEMBER_NOT_FOUND: dave left team "rt" \(at /);
      const claim = await mailroom(local.path, ...on, 'task', 'claim', '1', '--as', 'erin');
      expect(claim.code).toBe(5);
      expect(claim.stderr).toContain('TASK_ALREADY_CLAIMED: Task #1 is already completed (by dave): there is nothing left to claim.');
    } finally {
      await redis.stop();
      await local.cleanup();
    }
  });
});
