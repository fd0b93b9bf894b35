/**
 * A mailroom-run teammate is the only reader of its inbox, so once enough read entries pile up it
 * moves them to the archive itself (in-process members are never archived by senders, because a
 * Claude Code 2.1.109 in-process teammate marks entries by index): its inbox stays small and
 * nothing is lost (case 03 for mailroom's own teammates).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { heldReaderToken } from '../../helpers/runtime.js';
import { createTeam, openFsStores, readInbox, sendMessage, spawnMember, type Stores } from '../../../src/index.js';
import { ARCHIVE_AFTER_READ, Mailbox } from '../../../src/runtime/delivery/mailbox.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

describe('Mailbox archiving', () => {
  let dir: TempDir;
  let store: Stores;
  beforeEach(async () => {
    dir = await makeTempDir();
    store = openFsStores(dir.path);
    await createTeam({ root: store, team: 't' });
    await spawnMember({ root: store, team: 't', name: 'alice' });
  });
  afterEach(() => dir.cleanup());

  it(`moves its read entries to the archive after ${ARCHIVE_AFTER_READ}, keeping every message listable`, async () => {
    const total = ARCHIVE_AFTER_READ + 20;
    for (let i = 0; i < total; i++) await sendMessage({ root: store, team: 't', to: 'alice', text: `m${i}` });
    const box = new Mailbox(store, 't', 'alice', 'team-lead', await heldReaderToken(store, 't', 'alice'));
    const taken = await box.take();
    expect(taken.entries).toHaveLength(total);
    await box.acknowledge(taken);
    expect(await store.team.readInbox('t', 'alice')).toHaveLength(0);
    const all = await readInbox({ root: store, team: 't', agent: 'alice', includeArchived: true });
    expect(all.messages.map((m) => m.entry.text).sort()).toEqual(Array.from({ length: total }, (_, i) => `m${i}`).sort());
    expect(all.messages.every((m) => m.entry.read === true)).toBe(true);
  });

  it('leaves a short history in place', async () => {
    for (let i = 0; i < 5; i++) await sendMessage({ root: store, team: 't', to: 'alice', text: `m${i}` });
    const box = new Mailbox(store, 't', 'alice', 'team-lead', await heldReaderToken(store, 't', 'alice'));
    await box.acknowledge(await box.take());
    expect(await store.team.readInbox('t', 'alice')).toHaveLength(5);
  });
});
