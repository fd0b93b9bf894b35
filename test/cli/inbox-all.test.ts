/**
 * ../shared/cases/03 through the CLI: a send to an inbox holding 5 000 read messages delivers the
 * new one unread and moves nothing (issue 24 item 4: no send pays for archiving); a mailroom
 * runtime of the team (here a `mailroom agent` process) moves the read history to the archive
 * beside the sends, and `mailroom inbox --all` still lists every message (the live file alone no
 * longer does). With no runtime, `mailroom inbox --archive` does it on request.
 */
import { stat } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Layout } from '../../src/store/fs/paths.js';
import { startCli, type LineChild } from '../helpers/line-child.js';
import { cleanEnv, mailroom } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { historyEntries, makeTeam, writeInboxFile } from '../helpers/team-setup.js';

let tmp: TempDir;
const agents: LineChild[] = [];
beforeEach(async () => {
  tmp = await makeTempDir('mailroom-inbox-all-');
});
afterEach(async () => {
  for (const a of agents.splice(0)) await a.stop();
  await tmp.cleanup();
});

interface View {
  messages: Array<{ entry: { text: string; read?: boolean }; archived?: boolean }>;
}

const view = async (...args: string[]) => JSON.parse((await mailroom(tmp.path, 'inbox', '--json', ...args)).stdout) as View;

describe('case 03: a large read history', () => {
  it('is not moved by a send; the archiver of a running mailroom agent moves it, and `inbox --all` still lists it', async () => {
    await makeTeam(tmp.path, 't', ['a']);
    const history = historyEntries(5000, { pad: 380 });
    await writeInboxFile(tmp.path, 't', 'team-lead', history);
    expect((await mailroom(tmp.path, 'team', 'send', 'team-lead', 'one more', '--from', 'a')).code).toBe(0);
    expect((await view()).messages).toHaveLength(5001);
    await expect(stat(new Layout(tmp.path).inboxArchivePath('t', 'team-lead'))).rejects.toMatchObject({ code: 'ENOENT' });

    // A 100 ms beat makes the archiver look every 1.2 s (12 beats).
    const agent = startCli(['agent', 'a', '--root', tmp.path, '--team', 't'], cleanEnv({ MAILROOM_BEAT_MS: '100' }));
    agents.push(agent);
    await agent.waitForLine((l) => l.includes("moved 5000 read message(s) of team-lead's inbox to its archive"), 0, 30_000);

    expect((await view()).messages.map((m) => [m.entry.text, m.entry.read])).toEqual([['one more', false]]);
    const all = await view('--all');
    expect(all.messages.map((m) => m.entry.text)).toEqual([...history.map((e) => e.text), 'one more']);
    expect(all.messages.filter((m) => m.archived)).toHaveLength(5000);
    expect((await view('--all', '--unread')).messages.map((m) => m.entry.text)).toEqual(['one more']);
  }, 60_000);

  it('is moved on request by `mailroom inbox --archive`, unread messages kept', async () => {
    await makeTeam(tmp.path, 't', ['a']);
    const history = historyEntries(5000, { pad: 380 });
    await writeInboxFile(tmp.path, 't', 'team-lead', [...history, ...historyEntries(1, { read: false, from: 'a', startMs: Date.parse('2026-02-01T00:00:00.000Z') })]);
    const run = await mailroom(tmp.path, 'inbox', '--archive', '--json');
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ archived: 5000 });
    expect((await view()).messages).toHaveLength(1);
    expect((await view('--all')).messages).toHaveLength(5001);
    expect((await mailroom(tmp.path, 'inbox', '--archive')).stdout).toContain('Moved 0 read message(s)');
  });
});
