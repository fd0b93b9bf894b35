/**
 * Issue 15, "on the way": `updateInbox(change)` handed its callback a *filtered copy* of the inbox
 * (only the valid entries): changes to those objects were saved, but a push or splice on the array
 * was silently lost. The callback is gone — every inbox change is a store transition — and no
 * transition drops or moves what it does not understand: elements that are not entries stay where
 * they were, through takes, acknowledgements, releases, marking read and retiring old requests.
 */
import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openFsStores } from '../../../src/store/open.js';
import { historyEntries, makeTeam, writeInboxFile } from '../../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir();
  await makeTeam(dir.path, 't', ['alice']);
});
afterEach(() => dir.cleanup());

describe('inbox transitions', () => {
  it('keep elements that are not entries where they were', async () => {
    const [a, b, c] = historyEntries(3, { read: false });
    const odd = [{ note: 'written by someone else' }, 42, 'text', null];
    const path = await writeInboxFile(dir.path, 't', 'alice', [odd[0], a, odd[1], b, odd[2], c, odd[3]]);
    const store = openFsStores(dir.path).team;
    const first = await store.takeUnread('t', 'alice', { reader: 'r', limit: 1 });
    await store.release('t', 'alice', first.value.id);
    const lease = await store.takeUnread('t', 'alice', { reader: 'r', limit: 2 });
    await store.acknowledge('t', 'alice', lease.value.id);
    await store.markRead('t', 'alice', [c!.msg_id!]);
    await store.appendMessages('t', [{ to: 'alice', entry: historyEntries(1, { from: 'team-lead', read: false, startMs: Date.now() })[0]! }]);
    const raw = JSON.parse(await readFile(path, 'utf8')) as unknown[];
    expect([raw[0], raw[2], raw[4], raw[6]]).toEqual(odd);
    expect([raw[1], raw[3], raw[5]].map((e) => (e as { read: boolean }).read)).toEqual([true, true, true]);
    expect(raw).toHaveLength(8);
  });
});
