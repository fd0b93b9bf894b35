/**
 * `mailroom message show <id>` needed the whole 36-character msg_id (new-user trial, session 20).
 * It now takes a unique prefix of at least 6 characters, as git takes a commit's: the first group
 * of the id `team send` and `inbox --status` print is enough. An ambiguous prefix is refused with
 * MESSAGE_AMBIGUOUS (exit 2) listing the candidates; a prefix that is too short is INVALID_ARGUMENT
 * (exit 2); one that matches nothing is MESSAGE_NOT_FOUND (exit 3). Real CLI processes.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InboxEntry } from '../../src/protocol/inbox.js';
import { openFsStores } from '../../src/store/open.js';
import { mailroom, mailroomOk } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let dir: TempDir;
const cli = (...args: string[]) => mailroom(dir.path, '--team', 'demo', ...args);

const TWIN_1 = 'abcdef12-0000-4000-8000-000000000001';
const TWIN_2 = 'abcdef12-1000-4000-8000-000000000002';

beforeEach(async () => {
  dir = await makeTempDir('mailroom-msg-prefix-');
  await mailroomOk(dir.path, 'team', 'create', 'demo');
  await mailroomOk(dir.path, '--team', 'demo', 'team', 'spawn', 'alice');
  await mailroomOk(dir.path, '--team', 'demo', 'team', 'spawn', 'bob');
  // Two messages whose ids share their first group (as a client that chose its ids could write).
  const entry = (msgId: string, text: string): InboxEntry => ({ from: 'team-lead', text, timestamp: new Date().toISOString(), msg_id: msgId, read: false });
  await openFsStores(dir.path).team.appendMessages('demo', [
    { to: 'alice', entry: entry(TWIN_1, 'first twin') },
    { to: 'bob', entry: entry(TWIN_2, 'second twin') },
  ]);
});
afterEach(() => dir.cleanup());

async function sentId(to: string, text: string): Promise<string> {
  const run = await mailroomOk(dir.path, '--team', 'demo', 'team', 'send', to, text, '--json');
  return (JSON.parse(run.stdout) as { entry: { msg_id: string } }).entry.msg_id;
}

describe('message show <prefix>', () => {
  it.each([[8], [6]])('the first %i characters of a msg_id show that message, named in full', async (n) => {
    const id = await sentId('alice', 'Parse the CSV');
    const run = await cli('message', 'show', id.slice(0, n));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe(`Message ${id} from team-lead to alice: queued`);
    const json = await cli('message', 'show', id.slice(0, n), '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({ msg_id: id, to: 'alice', state: 'queued' });
  });

  it('the whole msg_id still works where another id shares its prefix', async () => {
    const run = await cli('message', 'show', TWIN_1, '--json');
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ msg_id: TWIN_1, to: 'alice', text: 'first twin' });
  });

  it('an ambiguous prefix: exit 2, MESSAGE_AMBIGUOUS, every candidate listed with its sender, recipient and text', async () => {
    const run = await cli('message', 'show', 'abcdef12');
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'mailroom: MESSAGE_AMBIGUOUS: msg_id prefix "abcdef12" matches 2 messages in team "demo"; give more of the id:\n' +
        `  ${TWIN_1}  team-lead → alice: first twin\n` +
        `  ${TWIN_2}  team-lead → bob: second twin\n`,
    );
    const json = await cli('message', 'show', 'abcdef12-', '--json');
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stderr)).toMatchObject({
      error: { code: 'MESSAGE_AMBIGUOUS', details: { team: 'demo', prefix: 'abcdef12-', candidates: [{ msg_id: TWIN_1, from: 'team-lead', to: 'alice' }, { msg_id: TWIN_2, from: 'team-lead', to: 'bob' }] } },
    });
    // One more character tells them apart.
    const one = await cli('message', 'show', 'abcdef12-1');
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toContain(`Message ${TWIN_2} from team-lead to bob: queued`);
  });

  it('a prefix shorter than 6 characters: exit 2, INVALID_ARGUMENT, saying how long a prefix must be', async () => {
    const run = await cli('message', 'show', 'abcde');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^mailroom: INVALID_ARGUMENT: msg_id "abcde" is too short to look up: give the whole msg_id, or at least its first 6 characters \(`mailroom .*inbox <member> --status` lists them\)\.\n$/);
  });

  it('a prefix that matches nothing: exit 3, MESSAGE_NOT_FOUND', async () => {
    const run = await cli('message', 'show', 'ffffff99');
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('MESSAGE_NOT_FOUND: No message with msg_id ffffff99 (or starting with it) in team "demo"');
  });

  it('a dead letter is found by its prefix too, once (its entry still in the kept inbox is the same message)', async () => {
    const id = await sentId('bob', 'Unread when bob left');
    await mailroomOk(dir.path, '--team', 'demo', 'team', 'stop', 'bob');
    const run = await cli('message', 'show', id.slice(0, 8), '--json');
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ msg_id: id, to: 'bob', state: 'dead-lettered' });
  });
});
