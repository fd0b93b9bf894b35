/**
 * An entry another reader removed while a mailroom reader held it (Claude Code 2.1.332 deletes
 * delivered entries) is never written back: acknowledging, marking read, archiving and appending
 * all re-read the file under its lock and change only what is still there.
 */
import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { heldReaderToken } from '../../helpers/runtime.js';
import { createTeam, openFsStores, type Stores, markRead, readInbox, sendMessage, spawnMember } from '../../../src/index.js';
import { Mailbox } from '../../../src/runtime/delivery/mailbox.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { patchJson, teamPaths } from '../../helpers/claude-writer.js';

describe('entries removed by another reader meanwhile', () => {
  let dir: TempDir;
  let store: Stores;
  let path: string;
  const texts = async () => (JSON.parse(await readFile(path, 'utf8')) as Array<{ text: string; read: boolean }>).map((e) => [e.text, e.read]);
  const removeLikeClaudeCode = (text: string) => patchJson<Array<{ text: string }>>(path, (entries) => entries.filter((e) => e.text !== text));
  beforeEach(async () => {
    dir = await makeTempDir();
    store = openFsStores(dir.path);
    await createTeam({ root: store, team: 't' });
    await spawnMember({ root: store, team: 't', name: 'alice' });
    path = teamPaths(dir.path, 't').inbox('alice');
    for (const text of ['one', 'two', 'three']) await sendMessage({ root: store, team: 't', to: 'alice', text });
  });
  afterEach(() => dir.cleanup());

  it('a mailbox acknowledging a taken entry does not bring it back', async () => {
    const box = new Mailbox(store, 't', 'alice', 'team-lead', await heldReaderToken(store, 't', 'alice'));
    const taken = await box.take();
    await removeLikeClaudeCode('two');
    await box.acknowledge(taken);
    expect(await texts()).toEqual([
      ['one', true],
      ['three', true],
    ]);
  });

  it('an acknowledgement counts an entry its reader removed meanwhile as read, and journals it so, as readers count it', async () => {
    const lease = await store.team.takeUnread('t', 'alice', { reader: 'r1' });
    const two = lease.value.entries[1]!;
    await removeLikeClaudeCode('two');
    const acked = await store.team.acknowledge('t', 'alice', lease.value.id);
    expect(acked.value).toBe(3);
    expect(acked.events.map((e) => (e.kind === 'delivery' ? [e.key, e.state] : []))).toEqual(lease.value.entries.map((e) => [e.msg_id, 'read']));
    expect((await store.team.readEvents('t')).events.filter((e) => e.kind === 'delivery' && e.key === two.msg_id).map((e) => (e.kind === 'delivery' ? e.state : ''))).toEqual(['delivered', 'read']);
    const view = await readInbox({ root: store, team: 't', agent: 'alice', includeArchived: true });
    expect(view.messages.find((m) => m.entry.msg_id === two.msg_id)).toMatchObject({ removed: true, entry: { read: true } });
    expect(await texts()).toEqual([
      ['one', true],
      ['three', true],
    ]);
  });

  it('markRead of a remembered copy changes only the entries still there', async () => {
    const seen = (await readInbox({ root: store, team: 't', agent: 'alice' })).messages.map((m) => m.entry);
    await removeLikeClaudeCode('one');
    expect(await markRead({ root: store, team: 't', agent: 'alice', entries: seen })).toBe(2);
    expect(await texts()).toEqual([
      ['two', true],
      ['three', true],
    ]);
  });

  it('archiving and appending keep the removal', async () => {
    const seen = (await readInbox({ root: store, team: 't', agent: 'alice' })).messages.map((m) => m.entry);
    await markRead({ root: store, team: 't', agent: 'alice', entries: seen.slice(0, 2) });
    await removeLikeClaudeCode('one');
    expect((await store.team.archiveInbox('t', 'alice')).value).toBe(1);
    await sendMessage({ root: store, team: 't', to: 'alice', text: 'four' });
    expect(await texts()).toEqual([
      ['three', false],
      ['four', false],
    ]);
    expect((await store.team.readInboxHistory('t', 'alice')).archived.map((e) => e.text)).toEqual(['two']);
  });
});
