/**
 * The bridge's inbox mirror (src/bridge/inbox-mirror.ts) over a real files store: every entry gets
 * the shared id `byId` gives it, on a full read and on a change read; a step sees only the ids that
 * changed (appended or turned read) since the last one; a rewrite is a full read again.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { entryKey } from '../../../src/domain/entries.js';
import { byId } from '../../../src/bridge/identity.js';
import { InboxMirror } from '../../../src/bridge/inbox-mirror.js';
import { openStores } from '../../../src/store/open.js';
import type { TeamStore } from '../../../src/store/team-store.js';
import { teamConfig, teammate } from '../../contract/team-store.contract.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

const T = 't';

describe('InboxMirror (both copies of an inbox, kept between bridge steps)', () => {
  let dir: TempDir;
  let store: TeamStore;
  // Claude Code 2.1.109 writes no msg_id: ids are derived from the triple.
  const send = (...texts: string[]) => store.appendMessages(T, texts.map((text) => ({ to: 'alice', entry: { from: 'bob', text, timestamp: '2026-01-01T00:00:00.000Z', read: false } })));
  beforeEach(async () => {
    dir = await makeTempDir('mailroom-mirror-');
    store = (await openStores({ kind: 'fs', root: dir.path })).team;
    await store.createTeam(teamConfig(T));
    await store.addMember(T, teammate(T, 'alice'));
  });
  afterEach(async () => {
    await store.close();
    await dir.cleanup();
  });

  it('indexes by shared id as byId does, and reports only what changed since the last read', async () => {
    const mirror = new InboxMirror(T);
    await send('a', 'b');
    const first = await mirror.read('local', store, 'alice');
    expect(first.changed).toBeUndefined();
    expect([...first.byId.keys()]).toEqual([...byId(T, 'alice', await store.readInbox(T, 'alice')).keys()]);
    // Not marked stale: nothing is read, nothing changed.
    await send('c');
    expect((await mirror.read('local', store, 'alice')).changed).toEqual([]);
    mirror.invalidate('local', 'alice');
    const second = await mirror.read('local', store, 'alice');
    const ids = [...byId(T, 'alice', await store.readInbox(T, 'alice')).keys()];
    expect(second.changed).toEqual([ids[2]]);
    expect([...second.byId.keys()]).toEqual(ids);
  });

  it('reads in full after a rewrite, and forgets everything on clear()', async () => {
    const mirror = new InboxMirror(T);
    await send('a', 'b');
    await mirror.read('remote', store, 'alice');
    await store.markRead(T, 'alice', [entryKey((await store.readInbox(T, 'alice'))[0]!)]);
    mirror.staleAll();
    const after = await mirror.read('remote', store, 'alice');
    expect(after.changed).toBeUndefined();
    expect([...after.byId.values()].map((e) => e.read)).toEqual([true, false]);
    mirror.clear();
    expect((await mirror.read('remote', store, 'alice')).changed).toBeUndefined();
  });
});
