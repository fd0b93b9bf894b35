/**
 * `team send --wait read` to a member nothing runs waited out its whole timeout, where `team ask`
 * to the same member fails at once with MEMBER_UNREACHABLE (new-user trial, session 20). Both now
 * apply one rule (src/core/members/reachability.ts): the send still stores the message — sending to
 * a member that is not running is legitimate — and the wait ends at once, exit 9, WAIT_UNREACHABLE,
 * saying the message is in the inbox and how to start the member. A Claude Code member (no member
 * record, no presence) and a running member are waited for; `--wait-for-start` waits anyway. Real
 * CLI processes; presence comes from real reader claims in the files store.
 */
import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openFsStores } from '../../src/store/open.js';
import { cleanEnv, mailroom, mailroomOk } from '../helpers/store-files.js';
import { runCli } from '../helpers/cli.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let dir: TempDir;
const cli = (...args: string[]) => mailroom(dir.path, '--team', 'demo', ...args);
const store = () => openFsStores(dir.path).team;

beforeEach(async () => {
  dir = await makeTempDir('mailroom-send-wait-');
  await mailroomOk(dir.path, 'team', 'create', 'demo');
  await mailroomOk(dir.path, '--team', 'demo', 'team', 'spawn', 'carol'); // registered by mailroom, not running
});
afterEach(() => dir.cleanup());

interface ErrorOut {
  error: { code: string; message: string; details: { msg_id: string; to: string; presence: string; wanted: string; status: { state: string } } };
}

describe('team send --wait to a member nothing runs', () => {
  it.each([['read'], ['delivered'], ['replied']])('--wait %s: the message is stored, the wait ends at once with exit 9 WAIT_UNREACHABLE', async (state) => {
    // A 10-minute timeout: waiting it out would fail the test on its own timeout.
    const run = await cli('team', 'send', 'carol', 'Please check the CSV', '--wait', state, '--timeout', '10m', '--json');
    expect(run.code, run.stderr).toBe(9);
    expect(run.stdout).toBe('');
    const { error } = JSON.parse(run.stderr) as ErrorOut;
    expect(error).toMatchObject({ code: 'WAIT_UNREACHABLE', details: { to: 'carol', presence: 'stopped', wanted: state, status: { state: 'queued' } } });
    const inbox = await store().readInbox('demo', 'carol');
    expect(inbox).toMatchObject([{ from: 'team-lead', text: 'Please check the CSV', read: false, msg_id: error.details.msg_id }]);
  });

  it('says in words that the message was delivered to the inbox, and how to start the member', async () => {
    const run = await cli('team', 'send', 'carol', 'Please check the CSV', '--wait', 'read');
    expect(run.code, run.stderr).toBe(9);
    const id = (await store().readInbox('demo', 'carol'))[0]!.msg_id!;
    expect(run.stderr).toContain(`mailroom: WAIT_UNREACHABLE: Message ${id} is in carol's inbox, but nobody is running carol to read it: nothing runs it now (presence: stopped).`);
    expect(run.stderr).toContain('start it (`mailroom --root');
    expect(run.stderr).toContain('agent carol`');
    expect(run.stderr).toContain('--wait-for-start');
    // `team ask` to the same member: the same rule, refused before anything is sent.
    const ask = await cli('team', 'ask', 'carol', 'Anyone home?');
    expect(ask.code).toBe(4);
    expect(ask.stderr).toContain('MEMBER_UNREACHABLE: carol cannot answer: nothing runs it now (presence: stopped).');
    expect(await store().readInbox('demo', 'carol')).toHaveLength(1);
  });

  it('a member whose runtime stopped beating (presence dead): the same', async () => {
    // A runtime that beat a minute ago and vanished: its claim file's mtime (the store's beat stamp) set back.
    await store().claimReader('demo', 'carol', { kind: 'agent', host: 'elsewhere', pid: 4242, startedAt: Date.now() - 70_000 });
    const minuteAgo = new Date(Date.now() - 60_000);
    await utimes(join(dir.path, 'mailroom', 'readers', 'demo', 'carol.json'), minuteAgo, minuteAgo);
    const run = await cli('team', 'send', 'carol', 'Still there?', '--wait', 'read', '--timeout', '10m', '--json');
    expect(run.code, run.stderr).toBe(9);
    expect((JSON.parse(run.stderr) as ErrorOut).error).toMatchObject({ code: 'WAIT_UNREACHABLE', details: { presence: 'dead' } });
    expect((JSON.parse(run.stderr) as ErrorOut).error.message).toContain('its runtime stopped beating at ');
    expect(await store().readInbox('demo', 'carol')).toMatchObject([{ text: 'Still there?' }]);
  });

  it('--wait-for-start waits anyway (until its timeout)', async () => {
    const run = await cli('team', 'send', 'carol', 'Read me when you start', '--wait', 'read', '--wait-for-start', '--timeout', '300ms', '--json');
    expect(run.code, run.stderr).toBe(9);
    expect((JSON.parse(run.stderr) as ErrorOut).error.code).toBe('WAIT_TIMEOUT');
  });

  it('--wait-for-start without --wait is refused, nothing sent', async () => {
    const run = await cli('team', 'send', 'carol', 'hi', '--wait-for-start');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('INVALID_ARGUMENT: --wait-for-start (it goes with --wait) does not go with a plain message');
    expect(await store().readInbox('demo', 'carol')).toEqual([]);
  });
});

describe('team send --wait to a member that may read', () => {
  it('a running member (it holds its reader claim) is waited for', async () => {
    await store().claimReader('demo', 'carol', { kind: 'agent', host: 'test-host', pid: 10_004, startedAt: Date.now() });
    const run = await cli('team', 'send', 'carol', 'hi', '--wait', 'read', '--timeout', '300ms', '--json');
    expect(run.code, run.stderr).toBe(9);
    expect((JSON.parse(run.stderr) as ErrorOut).error.code).toBe('WAIT_TIMEOUT');
  });

  it('a Claude Code member (no member record, so no presence to go by) is waited for, as it is asked', async () => {
    await store().addMember('demo', { agentId: 'dora@demo', name: 'dora', joinedAt: Date.now(), tmuxPaneId: '%4', backendType: 'tmux' });
    const run = await cli('team', 'send', 'dora', 'hi', '--wait', 'read', '--timeout', '300ms', '--json');
    expect(run.code, run.stderr).toBe(9);
    expect((JSON.parse(run.stderr) as ErrorOut).error.code).toBe('WAIT_TIMEOUT');
    // And a reader that reads it ends the wait with success: Claude Code marks the entry read.
    const waiting = cli('team', 'send', 'dora', 'second', '--wait', 'read', '--timeout', '60s', '--json');
    const until = Date.now() + 30_000;
    let key: string | undefined;
    while (key === undefined) {
      if (Date.now() > until) throw new Error('the message never reached dora');
      key = (await store().readInbox('demo', 'dora')).find((e) => e.text === 'second')?.msg_id;
      if (key === undefined) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await store().markRead('demo', 'dora', [key]);
    const run2 = await waiting;
    expect(run2.code, run2.stderr).toBe(0);
    expect((JSON.parse(run2.stdout) as { status: { state: string } }).status.state).toBe('read');
  });
});

describe('team send --wait to a member whose runtime goes away during the wait', () => {
  /** Starts the wait (beats of 100 ms: it looks again at least that often) once carol's runtime holds its claim; resolves with its run. */
  async function waitWhileCarolRuns(): Promise<{ run: Promise<Awaited<ReturnType<typeof runCli>>>; token: string }> {
    const { value: claim } = await store().claimReader('demo', 'carol', { kind: 'agent', host: 'test-host', pid: 10_005, startedAt: Date.now() }, { ttlMs: 1_000 });
    const beating = setInterval(() => void store().beat('demo', 'carol', claim.token, 'idle').catch(() => undefined), 100);
    const run = runCli(['--root', dir.path, '--team', 'demo', 'team', 'send', 'carol', 'Please check the CSV', '--wait', 'read', '--timeout', '10m', '--json'], cleanEnv({ MAILROOM_BEAT_MS: '100' }));
    // The wait has begun once the message is in carol's inbox (its first look found carol running).
    const deadline = Date.now() + 30_000;
    while ((await store().readInbox('demo', 'carol')).length === 0) {
      if (Date.now() > deadline) throw new Error('the message never reached carol');
      await new Promise((r) => setTimeout(r, 25));
    }
    await new Promise((r) => setTimeout(r, 500)); // well into the wait, past its first look
    clearInterval(beating);
    return { run, token: claim.token };
  }

  it('its runtime stops (the claim released): the wait ends with WAIT_UNREACHABLE (presence stopped), not at its 10-minute timeout', async () => {
    const { run, token } = await waitWhileCarolRuns();
    await store().releaseReader('demo', 'carol', token);
    const done = await run;
    expect(done.code, done.stderr).toBe(9);
    expect((JSON.parse(done.stderr) as ErrorOut).error).toMatchObject({ code: 'WAIT_UNREACHABLE', details: { to: 'carol', presence: 'stopped' } });
    expect(await store().readInbox('demo', 'carol')).toMatchObject([{ text: 'Please check the CSV', read: false }]);
  }, 60_000);

  it('its runtime dies (kill -9: the claim is left, no more beats): the wait ends with WAIT_UNREACHABLE (presence dead) once the claim lapses', async () => {
    const { run } = await waitWhileCarolRuns();
    const done = await run;
    expect(done.code, done.stderr).toBe(9);
    expect((JSON.parse(done.stderr) as ErrorOut).error).toMatchObject({ code: 'WAIT_UNREACHABLE', details: { to: 'carol', presence: 'dead' } });
  }, 60_000);
});
