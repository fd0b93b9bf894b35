/**
 * ../shared/cases/03 through the CLI: a send to an inbox holding 5 000 read messages moves them to
 * the archive, the new message is unread in the live file, and `mailroom inbox --all` still lists
 * every message (the live file alone no longer does).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mailroom } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { historyEntries, makeTeam, writeInboxFile } from '../helpers/team-setup.js';

let tmp: TempDir;
beforeEach(async () => {
  tmp = await makeTempDir('mailroom-inbox-all-');
});
afterEach(() => tmp.cleanup());

interface View {
  messages: Array<{ entry: { text: string; read?: boolean }; archived?: boolean }>;
}

describe('case 03: a large read history', () => {
  it('is archived by the next send and still listed by `inbox --all`', async () => {
    await makeTeam(tmp.path, 't', ['a']);
    const history = historyEntries(5000, { pad: 380 });
    await writeInboxFile(tmp.path, 't', 'team-lead', history);
    expect((await mailroom(tmp.path, 'team', 'send', 'team-lead', 'one more', '--from', 'a')).code).toBe(0);

    const live = JSON.parse((await mailroom(tmp.path, 'inbox', '--json')).stdout) as View;
    expect(live.messages.map((m) => [m.entry.text, m.entry.read])).toEqual([['one more', false]]);
    const all = JSON.parse((await mailroom(tmp.path, 'inbox', '--all', '--json')).stdout) as View;
    expect(all.messages).toHaveLength(5001);
    expect(all.messages.map((m) => m.entry.text)).toEqual([...history.map((e) => e.text), 'one more']);
    expect(all.messages.filter((m) => m.archived)).toHaveLength(5000);
    const unread = JSON.parse((await mailroom(tmp.path, 'inbox', '--all', '--unread', '--json')).stdout) as View;
    expect(unread.messages.map((m) => m.entry.text)).toEqual(['one more']);
  });
});
