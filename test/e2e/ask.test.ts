/**
 * `mailroom team ask` through the real binary, answered by a process teammate driven by the
 * scripted model (its SendMessage to the asker is the reply): the round trip, a timeout whose late
 * reply is still reported, and an ask to a member that cannot answer failing fast.
 */
import { utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnMember } from '../../src/index.js';
import { openFsStores } from '../../src/store/open.js';
import { appendEntries, teamPaths } from '../helpers/claude-writer.js';
import { runCli } from '../helpers/cli.js';
import { until } from '../helpers/runtime.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let dir: TempDir;
const cli = (...args: string[]) => runCli(['--root', dir.path, '--team', 'demo', ...args]);

beforeEach(async () => {
  dir = await makeTempDir('mailroom-ask-');
  expect((await runCli(['--root', dir.path, 'team', 'create', 'demo'])).code).toBe(0);
});
afterEach(async () => {
  await cli('team', 'stop', 'bob', '--force');
  await dir.cleanup();
});

/** Spawns bob as a process teammate whose model answers the first message it gets with `answer`. */
async function spawnBob(answer: string, delayMs = 0): Promise<void> {
  const script = join(dir.path, 'bob.json');
  await writeFile(script, JSON.stringify([{ toolCalls: [{ name: 'SendMessage', input: { to: 'team-lead', message: answer } }], ...(delayMs ? { delayMs } : {}) }]));
  const spawn = await cli('team', 'spawn', 'bob', '--backend', 'process', '--model', `scripted:${script}`);
  expect(spawn.code, spawn.stderr).toBe(0);
}

interface AskJson {
  ask: { to: string; entry: { msg_id: string; reply_expected: boolean; reply_by: string } };
  reply: { from: string; text: string; in_reply_to: string; read: boolean };
  waitedMs: number;
}

describe('team ask', () => {
  it('sends a question with a correlation id, waits for the teammate\'s reply and prints it', async () => {
    await spawnBob('42, as always');
    const run = await cli('team', 'ask', 'bob', 'What is six times seven?', '--timeout', '30s');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('42, as always\n');

    const store = openFsStores(dir.path).team;
    const [question] = (await store.readInbox('demo', 'bob')).filter((e) => e.text === 'What is six times seven?');
    expect(question).toMatchObject({ from: 'team-lead', reply_expected: true, reply_by: expect.stringMatching(/Z$/), msg_id: expect.any(String) });
    const replies = (await store.readInbox('demo', 'team-lead')).filter((e) => e.in_reply_to !== undefined);
    expect(replies).toMatchObject([{ from: 'bob', text: '42, as always', in_reply_to: question!.msg_id, read: true }]);
    expect(replies[0]).not.toHaveProperty('late_reply');
  });

  it('--json gives the ask and its reply, linked by msg_id', async () => {
    await spawnBob('yes');
    const run = await cli('team', 'ask', 'bob', 'Ready?', '--json');
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as AskJson;
    expect(out.ask).toMatchObject({ to: 'bob', entry: { reply_expected: true } });
    expect(out.reply).toMatchObject({ from: 'bob', text: 'yes', in_reply_to: out.ask.entry.msg_id, read: true });
    expect(out.waitedMs).toBeGreaterThanOrEqual(0);
  });

  it('times out with its own exit code, and the reply that comes later is reported as late', async () => {
    await spawnBob('sorry, slow today', 1_500);
    const run = await cli('team', 'ask', 'bob', 'Quick one?', '--timeout', '200ms', '--json');
    expect(run.code).toBe(9);
    expect(run.stdout).toBe('');
    const error = (JSON.parse(run.stderr) as { error: { code: string; message: string; details: { msg_id: string } } }).error;
    expect(error.code).toBe('WAIT_TIMEOUT');
    expect(error.message).toContain('is cancelled');
    const store = openFsStores(dir.path).team;
    const late = await until(async () => (await store.readInbox('demo', 'team-lead')).find((e) => e.in_reply_to === error.details.msg_id), 15_000, 'the late reply');
    expect(late).toMatchObject({ from: 'bob', text: 'sorry, slow today', late_reply: true, read: false });
    const inbox = await cli('inbox', '--unread');
    expect(inbox.stdout).toContain(`bob (unread) (late reply to ${error.details.msg_id}: its ask had timed out): sorry, slow today`);
  });

  it.each([
    ['stopped', false],
    ['dead', true],
  ])('fails at once, sending nothing, for a member mailroom runs whose presence is %s', async (state, withDeadClaim) => {
    await spawnMember({ root: openFsStores(dir.path), team: 'demo', name: 'carol', backend: 'process' });
    const store = openFsStores(dir.path).team;
    if (withDeadClaim) {
      // A runtime that beat a minute ago and then vanished (killed: its claim was never given up).
      // Beats are the store's stamps (the claim file's mtime), so the last one is set back a minute.
      await store.claimReader('demo', 'carol', { kind: 'agent', host: 'elsewhere', pid: 4242, startedAt: Date.now() - 70_000 });
      const minuteAgo = new Date(Date.now() - 60_000);
      await utimes(join(dir.path, 'mailroom', 'readers', 'demo', 'carol.json'), minuteAgo, minuteAgo);
    }
    const run = await cli('team', 'ask', 'carol', 'Anyone home?', '--timeout', '60s', '--json');
    expect(run.code).toBe(4);
    const error = (JSON.parse(run.stderr) as { error: { code: string; message: string; details: { presence: string } } }).error;
    expect(error).toMatchObject({ code: 'MEMBER_UNREACHABLE', details: { presence: state } });
    expect(error.message).toMatch(/`mailroom .*agent carol`/);
    expect((await store.readInbox('demo', 'carol')).filter((e) => e.text === 'Anyone home?')).toEqual([]);
  });

  it('asks a Claude Code teammate (no reader claim, no member record) and waits: its presence says nothing', async () => {
    // As a Claude Code 2.1.109 lead registers its in-process teammate (fixtures/claude-code-2.1.109/2-teammate-spawned).
    await openFsStores(dir.path).team.addMember('demo', { agentId: 'claude-mate@demo', name: 'claude-mate', agentType: 'general-purpose', joinedAt: Date.now(), tmuxPaneId: 'in-process', cwd: dir.path, subscriptions: [], backendType: 'in-process' });
    const asking = cli('team', 'ask', 'claude-mate', 'Are you there?', '--timeout', '20s');
    const store = openFsStores(dir.path).team;
    const question = await until(async () => (await store.readInbox('demo', 'claude-mate')).find((e) => e.text === 'Are you there?'), 10_000, 'the ask');
    // Claude Code writes the answer as a plain entry; mailroom's extra field is all it takes to link it.
    await appendEntries(teamPaths(dir.path, 'demo').inbox('team-lead'), { from: 'claude-mate', text: 'here', timestamp: new Date().toISOString(), read: false, in_reply_to: question.msg_id });
    const run = await asking;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('here\n');
  });
});
