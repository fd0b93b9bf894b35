/**
 * The archive trigger is 64 KiB of the inbox *file* (docs/format.md "Inbox archive"; the archiver
 * looks with a `stat`, in bytes). An inbox of non-ASCII text (3 bytes per character in UTF-8) that
 * is over the trigger in bytes but under it in characters was looked at, locked and read by every
 * archiver pass and never archived, so every send kept rewriting it whole.
 */
import { stat } from 'node:fs/promises';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { archiveLargeInboxes } from '../../../src/core/messages/inbox-archiver.js';
import { ARCHIVE_TRIGGER_BYTES } from '../../../src/store/fs/inboxes.js';
import { openFsStores } from '../../../src/store/open.js';
import { historyEntries, makeTeam, writeInboxFile } from '../../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

let tmp: TempDir;
beforeEach(async () => {
  tmp = await makeTempDir('mailroom-archive-bytes-');
  await makeTeam(tmp.path, 't', ['alice']);
});
afterEach(() => tmp.cleanup());

it('archives an inbox over the trigger in bytes though under it in characters', async () => {
  const history = historyEntries(150, { from: 'alice', pad: 0 }).map((e) => ({ ...e, text: `${e.text} ${'字'.repeat(200)}` }));
  const unread = historyEntries(1, { read: false, from: 'alice', startMs: Date.parse('2026-02-01T00:00:00.000Z') });
  const path = await writeInboxFile(tmp.path, 't', 'team-lead', [...history, ...unread]);
  const text = JSON.stringify([...history, ...unread], null, 2);
  expect(text.length).toBeLessThan(ARCHIVE_TRIGGER_BYTES);
  expect((await stat(path)).size).toBeGreaterThan(ARCHIVE_TRIGGER_BYTES);

  const stores = openFsStores(tmp.path);
  expect(await archiveLargeInboxes({ root: stores, team: 't' })).toEqual([{ agent: 'team-lead', moved: 150 }]);
  expect((await stores.team.readInbox('t', 'team-lead')).map((e) => e.text)).toEqual(unread.map((e) => e.text));
  expect((await stores.team.readInboxHistory('t', 'team-lead')).archived.map((e) => e.text)).toEqual(history.map((e) => e.text));
});
