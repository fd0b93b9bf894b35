/**
 * An ask and its reply in a team the real Claude Code 2.1.109 wrote (fixtures/claude-code-2.1.109,
 * snapshot 3): mailroom's extra fields (`reply_expected`, `reply_by`, `in_reply_to`) come after
 * 2.1.109's own keys, which keep their order; the entries 2.1.109 wrote stay byte for byte; and after
 * a 2.1.109-style mark-read (the whole array re-written, `read` flipped in place, unknown fields
 * kept: reference §2, §3) mailroom still links the reply to its ask.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { reply, sendMessage } from '../../../src/index.js';
import { askOf, findReply } from '../../../src/domain/replies.js';
import { openFsStores } from '../../../src/store/open.js';
import { patchJson, teamPaths } from '../../helpers/claude-writer.js';
import { copyTree, REFERENCE_2_1_109 } from '../../helpers/store-files.js';
import type { TempDir } from '../../helpers/temp-dir.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await copyTree(join(REFERENCE_2_1_109, '3-teammate-idle'));
});
afterEach(() => dir.cleanup());

const CLAUDE_KEYS_2_1_109 = ['from', 'text', 'summary', 'timestamp', 'color', 'read'];

it('keeps 2.1.109\'s entry shape, its entries untouched, and the link through its read-marking', async () => {
  const paths = teamPaths(dir.path, 'compat');
  const before = JSON.parse(await readFile(paths.inbox('observer'), 'utf8')) as unknown[];
  const asked = await sendMessage({ root: openFsStores(dir.path), team: 'compat', to: 'observer', text: 'Which file?', extras: { reply_expected: true, reply_by: '2099-01-01T00:00:00.000Z' } });

  const after = JSON.parse(await readFile(paths.inbox('observer'), 'utf8')) as Record<string, unknown>[];
  expect(after.slice(0, before.length)).toEqual(before);
  const keys = Object.keys(after.at(-1)!);
  const own = keys.filter((k) => CLAUDE_KEYS_2_1_109.includes(k));
  expect(own).toEqual(CLAUDE_KEYS_2_1_109.filter((k) => own.includes(k))); // 2.1.109's relative order
  expect(keys.indexOf('reply_expected')).toBeGreaterThan(keys.indexOf('read'));
  expect(after.at(-1)).toMatchObject({ from: 'team-lead', text: 'Which file?', read: false, reply_expected: true });

  // The 2.1.109 teammate reads it: the array re-written with `read: true`, every other field kept.
  await patchJson<Record<string, unknown>[]>(paths.inbox('observer'), (entries) => entries.map((e) => ({ ...e, read: true })));
  const store = openFsStores(dir.path).team;
  const seen = (await store.readInbox('compat', 'observer')).at(-1)!;
  expect(askOf(seen)).toEqual({ id: asked.entry.msg_id, replyBy: '2099-01-01T00:00:00.000Z' });

  const answer = await reply({ root: openFsStores(dir.path), team: 'compat', from: 'observer', inReplyTo: asked.entry.msg_id!, text: 'notes.md' });
  expect(answer).toMatchObject({ to: 'team-lead', late: false });
  await patchJson<Record<string, unknown>[]>(paths.inbox('team-lead'), (entries) => entries.map((e) => ({ ...e, read: true })));
  expect(findReply(await store.readInbox('compat', 'team-lead'), asked.entry.msg_id!, 'observer')).toMatchObject({ text: 'notes.md', in_reply_to: asked.entry.msg_id, read: true });
});

it('refuses a reply to a message the replier never got, and one addressed to someone else than the asker', async () => {
  const asked = await sendMessage({ root: openFsStores(dir.path), team: 'compat', to: 'observer', text: 'Which file?', extras: { reply_expected: true } });
  await expect(reply({ root: openFsStores(dir.path), team: 'compat', from: 'observer', inReplyTo: 'no-such-id', text: 'x' })).rejects.toMatchObject({ code: 'MESSAGE_NOT_FOUND' });
  await expect(reply({ root: openFsStores(dir.path), team: 'compat', from: 'observer', to: 'observer', inReplyTo: asked.entry.msg_id!, text: 'x' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
});
