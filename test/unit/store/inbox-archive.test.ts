/**
 * Bounded inboxes (../shared/cases/03): read history moves to `<root>/mailroom/archive/…` once the
 * live file passes the threshold; unread entries never move; `includeArchived` still lists all.
 */
import { readFile, stat, writeFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendMessage } from '../../../src/core/messages/send.js';
import { readInbox } from '../../../src/core/messages/inbox-read.js';
import { archiveInbox, autoArchiveAllowed } from '../../../src/core/messages/inbox-archive.js';
import { openFsStores } from '../../../src/store/open.js';
import { Layout } from '../../../src/store/fs/paths.js';
import { ARCHIVE_TRIGGER_BYTES } from '../../../src/store/fs/inboxes.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { historyEntries, makeTeam, writeInboxFile } from '../../helpers/team-setup.js';

let tmp: TempDir;
let root: string;
let layout: Layout;
beforeEach(async () => {
  tmp = await makeTempDir('mailroom-archive-');
  root = tmp.path;
  layout = new Layout(root);
  await makeTeam(root, 't', ['alice', { name: 'pane', backend: 'tmux' }]);
  // A teammate Claude Code runs inside its lead (2.1.109 snapshot 2's shape): it marks entries by index.
  await openFsStores(root).team.addMember('t', { agentId: 'cc@t', name: 'cc', color: 'green', joinedAt: 1, tmuxPaneId: 'in-process', subscriptions: [], model: 'm', planModeRequired: false, cwd: '/', backendType: 'in-process' });
});
afterEach(() => tmp.cleanup());

const liveOf = async (agent: string) => JSON.parse(await readFile(layout.inboxPath('t', agent), 'utf8')) as Array<{ text: string; read: boolean }>;

describe('a send to an inbox with a large read history', () => {
  it('moves the read head to the archive, keeps unread entries in order, and lists everything with includeArchived', async () => {
    const history = historyEntries(1000);
    const unread = historyEntries(3, { read: false, startMs: Date.parse('2026-02-01T00:00:00.000Z'), from: 'pane' });
    await writeInboxFile(root, 't', 'team-lead', [...history, ...unread]);
    expect((await stat(layout.inboxPath('t', 'team-lead'))).size).toBeGreaterThan(ARCHIVE_TRIGGER_BYTES);

    await sendMessage({ root: openFsStores(root), team: 't', from: 'alice', to: 'team-lead', text: 'new one' });

    expect((await liveOf('team-lead')).map((e) => e.text)).toEqual([...unread.map((e) => e.text), 'new one']);
    const archive = (await readFile(layout.inboxArchivePath('t', 'team-lead'), 'utf8')).trimEnd().split('\n');
    expect(archive.map((l) => (JSON.parse(l) as { text: string }).text)).toEqual(history.map((e) => e.text));
    const all = await readInbox({ root: openFsStores(root), team: 't', includeArchived: true });
    expect(all.messages.map((m) => m.entry.text)).toEqual([...history, ...unread].map((e) => e.text).concat('new one'));
    expect(all.messages.filter((m) => m.archived)).toHaveLength(1000);
    expect((await readInbox({ root: openFsStores(root), team: 't' })).messages).toHaveLength(4);
  });

  it('moves nothing past an unread entry at the head', async () => {
    const [first] = historyEntries(1, { read: false, from: 'pane', startMs: 0 });
    await writeInboxFile(root, 't', 'team-lead', [first, ...historyEntries(1000)]);
    await sendMessage({ root: openFsStores(root), team: 't', from: 'alice', to: 'team-lead', text: 'new one' });
    expect(await liveOf('team-lead')).toHaveLength(1002);
    await expect(stat(layout.inboxArchivePath('t', 'team-lead'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it("never archives automatically for Claude Code's in-process teammate (2.1.109 marks those by index)", async () => {
    await writeInboxFile(root, 't', 'cc', historyEntries(1000, { from: 'team-lead' }));
    await sendMessage({ root: openFsStores(root), team: 't', to: 'cc', text: 'hi' });
    expect(await liveOf('cc')).toHaveLength(1001);
    expect(await archiveInbox({ root: openFsStores(root), team: 't', agent: 'cc' })).toBe(1000);
    expect((await liveOf('cc')).map((e) => e.text)).toEqual(['hi']);
  });

  it('archives automatically for a member mailroom runs in-process (its runtime matches by msg_id)', async () => {
    await writeInboxFile(root, 't', 'alice', historyEntries(1000, { from: 'team-lead' }));
    await sendMessage({ root: openFsStores(root), team: 't', to: 'alice', text: 'hi' });
    expect((await liveOf('alice')).map((e) => e.text)).toEqual(['hi']);
  });

  it('keeps a small inbox as it is', async () => {
    await writeInboxFile(root, 't', 'pane', historyEntries(10, { from: 'team-lead' }));
    await sendMessage({ root: openFsStores(root), team: 't', to: 'pane', text: 'hi' });
    expect(await liveOf('pane')).toHaveLength(11);
  });
});

describe('the archive file', () => {
  it('lists an entry that is in both archive and inbox (crash between the two writes) once, at its live position', async () => {
    const entries = historyEntries(3);
    await writeInboxFile(root, 't', 'team-lead', entries.slice(1));
    const path = layout.inboxArchivePath('t', 'team-lead');
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, entries.slice(0, 2).map((e) => `${JSON.stringify(e)}\n`).join(''));
    const all = await readInbox({ root: openFsStores(root), team: 't', includeArchived: true });
    expect(all.messages.map((m) => [m.entry.text, m.archived ?? false])).toEqual([
      [entries[0]!.text, true],
      [entries[1]!.text, false],
      [entries[2]!.text, false],
    ]);
  });

  it('starts a fresh line after a torn one, and readers skip the torn line', async () => {
    const path = layout.inboxArchivePath('t', 'team-lead');
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, '{"from":"alice","text":"torn');
    await writeInboxFile(root, 't', 'team-lead', historyEntries(5));
    expect((await openFsStores(root).team.archiveInbox('t', 'team-lead')).value).toBe(5);
    expect((await openFsStores(root).team.readInboxHistory('t', 'team-lead')).archived.map((e) => e.text)).toEqual(historyEntries(5).map((e) => e.text));
    expect((await readFile(path, 'utf8')).split('\n')[0]).toBe('{"from":"alice","text":"torn');
  });

  it('is private: mode 0600 in 0700 directories', async () => {
    await writeInboxFile(root, 't', 'team-lead', historyEntries(5));
    await archiveInbox({ root: openFsStores(root), team: 't' });
    const path = layout.inboxArchivePath('t', 'team-lead');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(dirname(path))).mode & 0o777).toBe(0o700);
  });
});

describe('autoArchiveAllowed', () => {
  it("allows the lead, pane teammates and members mailroom runs, not Claude Code's in-process teammates or strangers", async () => {
    const config = await openFsStores(root).team.readConfig('t');
    expect(autoArchiveAllowed(config, 'team-lead')).toBe(true);
    expect(autoArchiveAllowed(config, 'pane')).toBe(true);
    expect(autoArchiveAllowed(config, 'alice')).toBe(true);
    expect(autoArchiveAllowed(config, 'cc')).toBe(false);
    expect(autoArchiveAllowed(config, 'nobody')).toBe(false);
  });
});
