/**
 * Dead letters with the real CLI (issue 11 item 4): a member stopped with unread mail has it
 * dead-lettered, each sender still in the team is told in a plain Claude Code inbox entry, `dead-letter
 * list` shows it, `message show` reports it, and `dead-letter retry` delivers it once. The team's
 * Claude Code files keep their shape: the dead letters live under `mailroom/`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InboxEntrySchema } from '../../src/protocol/inbox.js';
import { openFsStores } from '../../src/store/open.js';
import { mailroom, mailroomOk } from '../helpers/store-files.js';
import { makeTeam } from '../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let tmp: TempDir;
beforeEach(async () => {
  tmp = await makeTempDir('mailroom-dead-letters-');
  await makeTeam(tmp.path, 't', ['dan', 'bob']);
});
afterEach(() => tmp.cleanup());

async function send(to: string, text: string, from: string): Promise<string> {
  const run = await mailroomOk(tmp.path, 'team', 'send', to, text, '--as', from, '--json');
  const out = JSON.parse(run.stdout) as { entry?: { msg_id?: string }; msg_id?: string };
  const id = out.entry?.msg_id ?? out.msg_id;
  expect(id, run.stdout).toBeTruthy();
  return id!;
}

describe('dead letters', () => {
  it('dead-letters a stopped member\'s unread mail, tells the sender, lists, shows and retries it once', async () => {
    const store = openFsStores(tmp.path).team;
    const configBefore = JSON.parse(readFileSync(join(tmp.path, 'teams', 't', 'config.json'), 'utf8')) as Record<string, unknown>;
    const fromBob = await send('dan', 'please review the parser', 'bob');
    const fromLead = await send('dan', 'and the lexer', 'team-lead');
    const readOne = await send('dan', 'already read', 'bob');
    await store.markRead('t', 'dan', [readOne]);

    const stopped = await mailroomOk(tmp.path, 'team', 'stop', 'dan');
    expect(stopped.stdout).toContain('; 2 unread messages dead-lettered, senders told (`mailroom dead-letter list`)');

    const list = JSON.parse((await mailroomOk(tmp.path, 'dead-letter', 'list', '--json')).stdout) as Array<{ id: string; to: string; entry: { from: string; text: string } }>;
    expect(list.map((l) => [l.id, l.to, l.entry.from, l.entry.text])).toEqual([
      [fromBob, 'dan', 'bob', 'please review the parser'],
      [fromLead, 'dan', 'team-lead', 'and the lexer'],
    ]);
    const human = (await mailroomOk(tmp.path, 'dead-letter', 'list')).stdout;
    expect(human).toMatch(new RegExp(`^${fromBob}  \\S+  bob +dan +please review the parser$`, 'm'));

    // Each sender still in the team is told, in Claude Code's inbox shape.
    const bobInbox = await store.readInbox('t', 'bob');
    const notices = bobInbox.filter((e) => e.from === 'system');
    expect(notices).toHaveLength(1);
    expect(InboxEntrySchema.safeParse(notices[0]).success).toBe(true);
    expect(notices[0]).toMatchObject({ read: false, dead_letter: fromBob, summary: 'Undelivered: dan left' });
    expect(notices[0]!.text).toContain(`dead letter ${fromBob}`);
    expect((await store.readInbox('t', 'team-lead')).filter((e) => e.from === 'system').map((e) => e.dead_letter)).toEqual([fromLead]);

    const shown = JSON.parse((await mailroomOk(tmp.path, 'message', 'show', fromBob, '--json')).stdout) as { state: string; dead_letter: boolean };
    expect(shown).toMatchObject({ state: 'dead-lettered', dead_letter: true });
    expect((await mailroomOk(tmp.path, 'message', 'show', fromBob)).stdout).toContain(`: dead-lettered\n`);
    expect(JSON.parse((await mailroomOk(tmp.path, 'message', 'show', readOne, '--json')).stdout)).toMatchObject({ state: 'read' });

    // dan is gone and no --to: refused, nothing sent, nothing removed.
    const refused = await mailroom(tmp.path, 'dead-letter', 'retry', fromBob);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('--to <member>');
    expect(await store.listDeadLetters('t')).toHaveLength(2);

    const retried = JSON.parse((await mailroomOk(tmp.path, 'dead-letter', 'retry', fromBob, '--to', 'team-lead', '--json')).stdout) as Array<{ id: string; to: string; entry: { msg_id: string; retry_of: string } }>;
    expect(retried).toMatchObject([{ id: fromBob, to: 'team-lead', entry: { retry_of: fromBob } }]);
    const again = await mailroom(tmp.path, 'dead-letter', 'retry', fromBob, '--to', 'team-lead');
    expect(again.code).toBe(3);
    expect(again.stderr).toContain(`No dead letter ${fromBob}`);
    expect(again.stderr).toContain(`message show ${fromBob}`); // retried, or back with a rejoined recipient: where it is now (new-user trial)
    const delivered = (await store.readInbox('t', 'team-lead')).filter((e) => e.text === 'please review the parser');
    expect(delivered).toHaveLength(1);
    expect(delivered[0]).toMatchObject({ from: 'bob', read: false });
    expect((await store.listDeadLetters('t')).map((l) => l.id)).toEqual([fromLead]);
    expect(JSON.parse((await mailroomOk(tmp.path, 'message', 'show', fromBob, '--json')).stdout)).toMatchObject({ state: 'dead-lettered', dead_letter: false });

    // dan comes back: the rest is unread in its inbox again (issue 23), so --all has nothing left to re-send.
    await mailroomOk(tmp.path, 'team', 'spawn', 'dan');
    const rest = JSON.parse((await mailroomOk(tmp.path, 'dead-letter', 'retry', '--all', '--json')).stdout) as Array<{ to: string }>;
    expect(rest).toEqual([]);
    expect((await store.readInbox('t', 'dan')).filter((e) => e.read !== true).map((e) => e.text)).toEqual(['and the lexer']);
    expect((await mailroomOk(tmp.path, 'dead-letter', 'list')).stdout).toBe('No dead letters.\n');

    // Claude Code's files keep their shape; the dead letters are mailroom's own.
    const configAfter = JSON.parse(readFileSync(join(tmp.path, 'teams', 't', 'config.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(configAfter).sort()).toEqual(Object.keys(configBefore).sort());
    expect(existsSync(join(tmp.path, 'mailroom', 'dead-letters', 't.json'))).toBe(true);
    for (const e of await store.readInbox('t', 'bob')) expect(InboxEntrySchema.safeParse(e).success).toBe(true);
  });

  it('a send waiting for "read" ends as soon as its recipient leaves with it unread', async () => {
    const store = openFsStores(tmp.path).team;
    // --wait-for-start: nothing runs dan, so the wait would otherwise end at once (test/cli/send-wait-unreachable.test.ts).
    const waiting = mailroom(tmp.path, 'team', 'send', 'dan', 'read me', '--wait', 'read', '--wait-for-start', '--timeout', '120s');
    // Wait for the message to be in dan's inbox (the journal's message event), then stop dan.
    const until = Date.now() + 30_000;
    while (!(await store.readInbox('t', 'dan')).some((e) => e.text === 'read me')) {
      if (Date.now() > until) throw new Error('the message never reached dan');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await mailroomOk(tmp.path, 'team', 'stop', 'dan');
    const run = await waiting;
    expect(run.code).toBe(9);
    expect(run.stderr).toContain('dead-lettered');
    expect(run.stderr).not.toContain('did not reach');
  });

  it('refuses retry without an id or --all, with a usage error', async () => {
    const run = await mailroom(tmp.path, 'dead-letter', 'retry');
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('--all');
  });
});
