/**
 * Bounded inboxes (../shared/cases/03): read history moves to `<root>/mailroom/archive/…` once the
 * live file passes the threshold — in a reader's step or by the archiver, never in a send (issue 24
 * item 4); unread entries never move; `includeArchived` still lists all.
 */
import { readFile, stat, writeFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendMessage } from '../../../src/core/messages/send.js';
import { readInbox } from '../../../src/core/messages/inbox-read.js';
import { archiveInbox, autoArchiveAllowed } from '../../../src/core/messages/inbox-archive.js';
import { archiveLargeInboxes, startArchiver } from '../../../src/core/messages/inbox-archiver.js';
import { Mailbox } from '../../../src/runtime/delivery/mailbox.js';
import { HandOut } from '../../../src/mcp/handout.js';
import { heldReaderToken, until } from '../../helpers/runtime.js';
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

describe('a send to an inbox with a large read history (issue 24 item 4: no send pays for archiving)', () => {
  it('never moves the read head, for any recipient: the archive is unchanged after the send', async () => {
    for (const agent of ['team-lead', 'alice', 'pane']) {
      // An archive from earlier, and 1 000 read messages since.
      await writeInboxFile(root, 't', agent, historyEntries(5, { startMs: 0 }));
      await archiveInbox({ root: openFsStores(root), team: 't', agent });
      const archived = await readFile(layout.inboxArchivePath('t', agent), 'utf8');
      await writeInboxFile(root, 't', agent, [...historyEntries(1000, { from: 'cc' }), ...historyEntries(3, { read: false, from: 'cc', startMs: Date.parse('2026-02-01T00:00:00.000Z') })]);
      expect((await stat(layout.inboxPath('t', agent))).size).toBeGreaterThan(ARCHIVE_TRIGGER_BYTES);
      await sendMessage({ root: openFsStores(root), team: 't', from: 'cc', to: agent, text: 'new one' });
      const live = await liveOf(agent);
      expect(live).toHaveLength(1004);
      expect(live.at(-1)!.text).toBe('new one');
      expect(await readFile(layout.inboxArchivePath('t', agent), 'utf8')).toBe(archived);
    }
  });
});

describe("a mailroom reader's acknowledgement on a large inbox", () => {
  it('moves the read head (what it just marked included) to the archive in the same step; unread entries stay, in order', async () => {
    const history = historyEntries(1000);
    const fresh = historyEntries(3, { read: false, startMs: Date.parse('2026-02-01T00:00:00.000Z'), from: 'pane' });
    await writeInboxFile(root, 't', 'alice', [...history, ...fresh]);
    const stores = openFsStores(root);
    const mailbox = new Mailbox(stores, 't', 'alice', 'team-lead', await heldReaderToken(stores, 't', 'alice'));
    const delivery = await mailbox.take();
    expect(delivery.entries).toHaveLength(3);
    await sendMessage({ root: stores, team: 't', from: 'pane', to: 'alice', text: 'came meanwhile' });
    await expect(stat(layout.inboxArchivePath('t', 'alice'))).rejects.toMatchObject({ code: 'ENOENT' });

    await mailbox.acknowledge(delivery);

    expect((await liveOf('alice')).map((e) => [e.text, e.read])).toEqual([['came meanwhile', false]]);
    expect((await stores.team.readInboxHistory('t', 'alice')).archived.map((e) => e.text)).toEqual([...history, ...fresh].map((e) => e.text));
    const all = await readInbox({ root: stores, team: 't', agent: 'alice', includeArchived: true });
    expect(all.messages.map((m) => m.entry.text)).toEqual([...history, ...fresh].map((e) => e.text).concat('came meanwhile'));
  });

  it('moves nothing without the reader\'s leave, nothing past an unread entry, and nothing on a small inbox', async () => {
    const store = openFsStores(root).team;
    const [first] = historyEntries(1, { read: false, from: 'pane', startMs: 0 });
    const last = historyEntries(1, { read: false, from: 'pane', startMs: Date.parse('2026-03-01T00:00:00.000Z') });
    await writeInboxFile(root, 't', 'alice', [first, ...historyEntries(1000), ...last]);
    const lease = await store.takeUnread('t', 'alice', { reader: 'r', limit: 2 });
    // Only the last entry acknowledged: the unread head stays, so nothing moves.
    await store.acknowledge('t', 'alice', lease.value.id, { keys: [lease.value.entries[1]!.msg_id!], archiveRead: true });
    expect(await liveOf('alice')).toHaveLength(1002);
    await writeInboxFile(root, 't', 'pane', [...historyEntries(1000), ...last]);
    const other = await store.takeUnread('t', 'pane', { reader: 'r' });
    await store.acknowledge('t', 'pane', other.value.id);
    expect(await liveOf('pane')).toHaveLength(1001);
    await writeInboxFile(root, 't', 'team-lead', [...historyEntries(10), ...last]);
    const small = await store.takeUnread('t', 'team-lead', { reader: 'r' });
    await store.acknowledge('t', 'team-lead', small.value.id, { archiveRead: true });
    expect(await liveOf('team-lead')).toHaveLength(11);
    for (const agent of ['alice', 'pane', 'team-lead']) await expect(stat(layout.inboxArchivePath('t', agent))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('over MCP (read_inbox acknowledging what it handed out) moves it too, but never for a Claude Code in-process teammate', async () => {
    const stores = openFsStores(root);
    for (const [agent, moves] of [['alice', true], ['cc', false]] as const) {
      await writeInboxFile(root, 't', agent, [...historyEntries(1000), ...historyEntries(2, { read: false, from: 'pane', startMs: Date.parse('2026-02-01T00:00:00.000Z') })]);
      const { token } = (await stores.team.claimReader('t', agent, { kind: 'mcp', host: 'here', pid: process.pid, startedAt: Date.now() })).value;
      const handOut = new HandOut({ store: stores, team: 't', me: agent, readerToken: () => token });
      await handOut.take(10);
      expect(await handOut.acknowledge(handOut.delivered())).toBe(2);
      expect(await liveOf(agent)).toHaveLength(moves ? 0 : 1002);
      expect((await stores.team.readInboxHistory('t', agent)).archived).toHaveLength(moves ? 1002 : 0);
    }
  });

  it('`mailroom inbox --mark-read` (readInbox with markRead) moves it for the lead, not for a Claude Code in-process teammate', async () => {
    const stores = openFsStores(root);
    for (const [agent, moves] of [['team-lead', true], ['cc', false]] as const) {
      await writeInboxFile(root, 't', agent, [...historyEntries(1000), ...historyEntries(2, { read: false, from: 'pane', startMs: Date.parse('2026-02-01T00:00:00.000Z') })]);
      const view = await readInbox({ root: stores, team: 't', agent, unread: true, markRead: true });
      expect(view.messages.filter((m) => m.newlyRead)).toHaveLength(2);
      expect(await liveOf(agent)).toHaveLength(moves ? 0 : 1002);
    }
  });

  it("never archives automatically for Claude Code's in-process teammate, but does on request", async () => {
    await writeInboxFile(root, 't', 'cc', historyEntries(1000, { from: 'team-lead' }));
    await sendMessage({ root: openFsStores(root), team: 't', to: 'cc', text: 'hi' });
    expect(await archiveLargeInboxes({ root: openFsStores(root), team: 't' })).toEqual([]);
    expect(await liveOf('cc')).toHaveLength(1001);
    expect(await archiveInbox({ root: openFsStores(root), team: 't', agent: 'cc' })).toBe(1000);
    expect((await liveOf('cc')).map((e) => e.text)).toEqual(['hi']);
  });
});

describe('the archiver beside the sends', () => {
  it("archives an inbox Claude Code reads (marked read in place, never archived by its reader) once it passes the trigger; leaves small ones and in-process teammates' alone", async () => {
    const history = historyEntries(1000, { from: 'alice' });
    const unread = historyEntries(2, { read: false, from: 'alice', startMs: Date.parse('2026-02-01T00:00:00.000Z') });
    await writeInboxFile(root, 't', 'team-lead', [...history, ...unread]);
    await writeInboxFile(root, 't', 'cc', historyEntries(1000, { from: 'team-lead' }));
    await writeInboxFile(root, 't', 'pane', historyEntries(10, { from: 'team-lead' }));
    const stores = openFsStores(root);
    const archiver = startArchiver({ root: stores, team: 't', intervalMs: 20 });
    try {
      // The archive is written first, then the inbox: wait for the inbox.
      await until(async () => (await liveOf('team-lead')).length === 2 || undefined, 10_000, 'the lead inbox archived');
    } finally {
      archiver.close();
    }
    expect((await liveOf('team-lead')).map((e) => e.text)).toEqual(unread.map((e) => e.text));
    expect((await stores.team.readInboxHistory('t', 'team-lead')).archived.map((e) => e.text)).toEqual(history.map((e) => e.text));
    expect(await liveOf('cc')).toHaveLength(1000);
    expect(await liveOf('pane')).toHaveLength(10);
    // A second pass finds nothing past the trigger, and writes nothing.
    expect(await archiveLargeInboxes({ root: stores, team: 't' })).toEqual([]);
  });

  it('reports an inbox that does not parse and never overwrites it; the other inboxes are archived', async () => {
    const path = layout.inboxPath('t', 'pane');
    await mkdir(dirname(path), { recursive: true });
    const broken = `[${JSON.stringify(historyEntries(1000)).slice(1, -1)},{"torn`;
    await writeFile(path, broken);
    await writeInboxFile(root, 't', 'team-lead', historyEntries(1000));
    const errors: string[] = [];
    const done = await archiveLargeInboxes({ root: openFsStores(root), team: 't', onError: (agent, err) => errors.push(`${agent}: ${(err as { code?: string }).code}`) });
    expect(done).toEqual([{ agent: 'team-lead', moved: 1000 }]);
    expect(errors).toEqual(['pane: FILE_CORRUPT']);
    expect(await readFile(path, 'utf8')).toBe(broken);
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
