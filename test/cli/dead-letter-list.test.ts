/**
 * `dead-letter list` for a human (new-user trial): a dead-lettered structured message (a plan
 * approval, a shutdown request) was printed as its stored JSON text, `{"type":"plan_approval_response",…`
 * cut at 80 characters, and the sender's notice quoted the same JSON. The list is now a table like
 * `task list` — ID (what `dead-letter retry` takes), DEAD SINCE, FROM, TO, MESSAGE — whose message
 * is the summary or the text rendered as `inbox` renders it (structured messages by type) on one
 * line; `--json` keeps the stored entries for machines.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { mailroomOk } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let tmp: TempDir;
beforeEach(async () => {
  tmp = await makeTempDir('mailroom-dead-letter-list-');
  await mailroomOk(tmp.path, 'team', 'create', 'demo');
  await mailroomOk(tmp.path, 'team', 'spawn', 'bob');
});
afterEach(() => tmp.cleanup());

const idOf = async (...args: string[]): Promise<string> => (JSON.parse((await mailroomOk(tmp.path, '--json', 'team', 'send', 'bob', ...args)).stdout) as { entry: { msg_id: string } }).entry.msg_id;

it('a table with the retry id, no stored JSON; --json keeps the entries; the sender\'s notice quotes no JSON', async () => {
  const summed = await idOf('please review the parser', '--summary', 'Review parser');
  const plain = await idOf('two\nlines  of text');
  const plan = await idOf('--structured', '{"type":"plan_approval_response","requestId":"r1","approved":true}');
  await mailroomOk(tmp.path, 'team', 'stop', 'bob', '--force');

  const lines = (await mailroomOk(tmp.path, 'dead-letter', 'list')).stdout.trimEnd().split('\n');
  expect(lines[0]).toMatch(/^ID +DEAD SINCE +FROM +TO +MESSAGE$/);
  expect(lines.slice(1)).toHaveLength(3);
  const row = (id: string) => lines.find((l) => l.startsWith(`${id}  `));
  expect(row(summed)).toMatch(/ team-lead +bob +Review parser$/);
  expect(row(plain)).toMatch(/ team-lead +bob +two lines of text$/);
  expect(row(plan)).toMatch(/ team-lead +bob +\[plan approved r1\]$/);
  expect(lines.join('\n')).not.toContain('{"type"');

  const json = JSON.parse((await mailroomOk(tmp.path, '--json', 'dead-letter', 'list')).stdout) as Array<{ id: string; entry: { text: string } }>;
  expect(JSON.parse(json.find((l) => l.id === plan)!.entry.text)).toMatchObject({ type: 'plan_approval_response', requestId: 'r1' });

  const notices = (JSON.parse((await mailroomOk(tmp.path, '--json', 'inbox', 'team-lead')).stdout) as { messages: Array<{ entry: { from: string; text: string; dead_letter?: string } }> }).messages.filter((m) => m.entry.from === 'system');
  expect(notices.find((m) => m.entry.dead_letter === plan)?.entry.text).toContain('before reading it ("[plan approved r1]")');
});
