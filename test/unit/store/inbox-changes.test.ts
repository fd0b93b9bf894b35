/**
 * `readInboxChanges` on files against Claude Code's own ways of writing an inbox (reference §6):
 * 2.1.109 rewrites the file in place, 2.1.332 by temp file and rename, both as
 * `JSON.stringify(array, null, 2)`. Only a file that is the marked one plus appended elements is
 * read as a delta; an edit anywhere before the tail — also one that keeps the file's length — and a
 * file caught half-written are never taken for one.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { entryKey } from '../../../src/domain/entries.js';
import type { InboxEntry } from '../../../src/protocol/inbox.js';
import { openStores } from '../../../src/store/open.js';
import type { InboxChanges, TeamStore } from '../../../src/store/team-store.js';
import { applyChanges } from '../../contract/inbox-changes.contract.js';
import { entry, teamConfig, teammate } from '../../contract/team-store.contract.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

const T = 'follow';

describe('readInboxChanges on files, with Claude Code writing the inbox', () => {
  let dir: TempDir;
  let store: TeamStore;
  let path: string;
  const claude = async (change: (entries: InboxEntry[]) => void, how: 'in-place' | 'rename') => {
    const entries = JSON.parse(await readFile(path, 'utf8')) as InboxEntry[];
    change(entries);
    const text = JSON.stringify(entries, null, 2);
    if (how === 'in-place') return writeFile(path, text);
    await writeFile(`${path}.tmp`, text);
    await rename(`${path}.tmp`, path);
  };
  beforeEach(async () => {
    dir = await makeTempDir('mailroom-changes-');
    store = (await openStores({ kind: 'fs', root: dir.path })).team;
    await store.createTeam(teamConfig(T));
    await store.addMember(T, teammate(T, 'alice'));
    await store.appendMessages(T, ['a', 'b', 'c'].map((text) => ({ to: 'alice', entry: entry('bob', text) })));
    path = `${dir.path}/teams/${T}/inboxes/alice.json`;
  });
  afterEach(async () => {
    await store.close();
    await dir.cleanup();
  });

  const check = async (first: InboxChanges) => {
    const next = await store.readInboxChanges!(T, 'alice', first.mark);
    expect(applyChanges(first.full ? first.entries : [], next)).toEqual(await store.readInbox(T, 'alice'));
    return next;
  };

  it('reads an append by Claude Code, in place or by rename, as a delta of the new entries', async () => {
    for (const how of ['in-place', 'rename'] as const) {
      const first = await store.readInboxChanges!(T, 'alice');
      await claude((es) => es.push({ from: 'bob', text: `cc-${how}`, timestamp: new Date().toISOString(), read: false }), how);
      const next = await check(first);
      expect(next.full ? 'full' : next.appended.map((e) => e.text)).toEqual([`cc-${how}`]);
    }
  });

  it('reads in full when an earlier entry changed, also when the file keeps its length', async () => {
    const first = await store.readInboxChanges!(T, 'alice');
    // Same length: one character of the first text, and an append after it.
    await claude((es) => {
      es[0]!.text = 'x';
      es.push({ from: 'bob', text: 'd', timestamp: new Date().toISOString(), read: false });
    }, 'in-place');
    expect((await check(first)).full).toBe(true);
    const second = await store.readInboxChanges!(T, 'alice');
    await claude((es) => void (es[1]!.read = true), 'rename');
    expect((await check(second)).full).toBe(true);
    const third = await store.readInboxChanges!(T, 'alice');
    await store.markRead(T, 'alice', [entryKey((await store.readInbox(T, 'alice'))[2]!)]);
    expect((await check(third)).full).toBe(true);
  });

  it('does not take a half-written file for a delta or for the inbox: it waits for the write to land', async () => {
    const first = await store.readInboxChanges!(T, 'alice');
    const base = first.full ? first.entries : [];
    const whole = JSON.stringify([...(JSON.parse(await readFile(path, 'utf8')) as InboxEntry[]), { from: 'bob', text: 'late', timestamp: new Date().toISOString(), read: false }], null, 2);
    // Claude Code 2.1.109 truncates, then writes: caught with only part of the new tail written.
    await writeFile(path, whole.slice(0, whole.length - 20));
    const landing = new Promise((r) => setTimeout(r, 3)).then(() => writeFile(path, whole));
    const next = await store.readInboxChanges!(T, 'alice', first.mark);
    await landing;
    expect(applyChanges(base, next).map((e) => e.text)).toEqual(['a', 'b', 'c', 'late']);
  });

  it('waits for a write caught right after the truncation, and reads the append as a delta', async () => {
    const first = await store.readInboxChanges!(T, 'alice');
    const whole = JSON.stringify([...(JSON.parse(await readFile(path, 'utf8')) as InboxEntry[]), { from: 'bob', text: 'after-truncate', timestamp: new Date().toISOString(), read: false }], null, 2);
    await writeFile(path, '');
    const landing = new Promise((r) => setTimeout(r, 2)).then(() => writeFile(path, whole));
    const next = await store.readInboxChanges!(T, 'alice', first.mark);
    await landing;
    expect(next.full ? 'full' : next.appended.map((e) => e.text)).toEqual(['after-truncate']);
  });

  it('reads in full at once a shorter file that is not the start of the marked one (entries removed)', async () => {
    const first = await store.readInboxChanges!(T, 'alice');
    await claude((es) => void es.splice(1, 1), 'rename');
    expect((await check(first)).full).toBe(true);
  });
});
