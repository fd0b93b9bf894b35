/**
 * Messages may hold secrets: every directory mailroom creates is 0700 and every file 0600,
 * including the lazily created inbox `[]`, the task list's `.lock` anchor, `.highwatermark`, lock
 * directories and the inbox archive; a file rewritten by mailroom ends up 0600 too.
 */
import { chmod, readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendMessage } from '../../../src/core/messages/send.js';
import { addTask, deleteTask } from '../../../src/core/tasks/board.js';
import { archiveInbox } from '../../../src/core/messages/inbox-archive.js';
import { markRead } from '../../../src/core/messages/inbox-read.js';
import { acquireLock } from '../../../src/store/fs/lock.js';
import { Layout } from '../../../src/store/fs/paths.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { makeTeam } from '../../helpers/team-setup.js';
import { openFsStores } from '../../../src/store/open.js';

let tmp: TempDir;
let previousUmask: number;
beforeEach(async () => {
  previousUmask = process.umask(0o022);
  tmp = await makeTempDir('mailroom-perm-');
});
afterEach(async () => {
  process.umask(previousUmask);
  await tmp.cleanup();
});

/** `path → "dir 700"` / `"file 600"` for everything under `root`. */
async function modes(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(root, { recursive: true, withFileTypes: true })) {
    const path = join(e.parentPath, e.name);
    const s = await stat(path);
    out[relative(root, path)] = `${s.isDirectory() ? 'dir' : 'file'} ${(s.mode & 0o777).toString(8)}`;
  }
  return out;
}

describe('permissions of everything mailroom creates', () => {
  it('are 0700 for directories and 0600 for files', async () => {
    const root = join(tmp.path, 'store');
    await makeTeam(root, 't', ['alice']);
    const sent = await sendMessage({ root: openFsStores(root), team: 't', from: 'alice', to: 'team-lead', text: 'secret' });
    await markRead({ root: openFsStores(root), team: 't', agent: 'team-lead', entries: [sent.entry] });
    await archiveInbox({ root: openFsStores(root), team: 't' });
    await addTask({ root: openFsStores(root), team: 't', subject: 'one' });
    await addTask({ root: openFsStores(root), team: 't', subject: 'two', blockedBy: ['1'] });
    await deleteTask({ root: openFsStores(root), team: 't', id: '2' });
    const inbox = new Layout(root).inboxPath('t', 'team-lead');
    const held = await acquireLock(inbox, `${inbox}.lock`);

    const all = await modes(root);
    await held.release();
    expect(Object.keys(all)).toEqual(
      expect.arrayContaining(['teams/t/config.json', 'teams/t/inboxes/team-lead.json', 'teams/t/inboxes/team-lead.json.lock', 'tasks/t/.lock', 'tasks/t/1.json', 'tasks/t/.highwatermark', 'mailroom/archive/t/team-lead.ndjson']),
    );
    for (const [path, mode] of Object.entries(all)) expect([path, mode]).toEqual([path, mode.startsWith('dir') ? 'dir 700' : 'file 600']);
    expect(((await stat(root)).mode & 0o777).toString(8)).toBe('700');
  });

  it('tightens a file Claude Code left world-readable when mailroom rewrites it', async () => {
    const root = tmp.path;
    await makeTeam(root, 't', ['alice']);
    await sendMessage({ root: openFsStores(root), team: 't', from: 'alice', to: 'team-lead', text: 'one' });
    const inbox = new Layout(root).inboxPath('t', 'team-lead');
    await chmod(inbox, 0o644);
    await sendMessage({ root: openFsStores(root), team: 't', from: 'alice', to: 'team-lead', text: 'two' });
    expect((await stat(inbox)).mode & 0o777).toBe(0o600);
  });
});
