/**
 * `mailroom watch` in a real 80×24 terminal (tmux): with more members, tasks and messages than fit,
 * every member shows or is counted on the roster's `+N more` line, and the other panes count what
 * they leave out too; with a small team nothing is hidden.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addTask } from '../../src/core/tasks/board.js';
import { sendMessage } from '../../src/core/messages/send.js';
import { BIN } from '../helpers/cli.js';
import { makeTeam } from '../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { sh, startTmux, type TmuxSession } from '../helpers/tmux.js';
import { openFsStores } from '../../src/store/open.js';

/** The lines inside the pane whose title starts with `title` (between its borders). */
function pane(screen: string, title: string): string[] {
  const lines = screen.split('\n');
  const top = lines.findIndex((l) => l.startsWith(`│ ${title}`)) - 1;
  const bottom = lines.findIndex((l, i) => i > top && l.startsWith('╰'));
  return lines.slice(top + 2, bottom).map((l) => l.replace(/^│ /, '').replace(/ *│$/, ''));
}

describe('mailroom watch in a real terminal (tmux 80×24)', () => {
  let dir: TempDir;
  let tmux: TmuxSession | undefined;
  beforeEach(async () => {
    dir = await makeTempDir('mailroom-watch-fit-');
  });
  afterEach(async () => {
    await tmux?.kill();
    await dir.cleanup();
  });

  async function watch(): Promise<string> {
    tmux = await startTmux(`env TZ=UTC MAILROOM_TEAM= ${sh(process.execPath)} ${sh(BIN)} watch --root ${sh(dir.path)} --team demo; sleep 30`, 80, 24);
    return tmux.waitFor((s) => s.includes('q quit') && s.includes('Roster'));
  }

  it('a big team: each member shows or is counted on +N more, and so are tasks and messages', async () => {
    const members = Array.from({ length: 12 }, (_, i) => `member-${String(i + 1).padStart(2, '0')}`);
    await makeTeam(dir.path, 'demo', members);
    for (let i = 1; i <= 15; i++) await addTask({ root: openFsStores(dir.path), team: 'demo', subject: `task ${i}` });
    for (let i = 1; i <= 20; i++) await sendMessage({ root: openFsStores(dir.path), team: 'demo', to: members[i % members.length] as string, text: `message ${i}` });
    const screen = await watch();
    const lines = screen.split('\n');
    expect(lines[0]).toBe('mailroom watch · team demo · 13 members · 15 tasks · 20 messages (20 unread)');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);

    const roster = pane(screen, 'Roster (13)');
    const more = /^\+(\d+) more$/.exec(roster.at(-1) ?? '');
    expect(more, screen).not.toBeNull();
    const shown = roster.slice(1, -1).map((l) => l.split(' ')[0] as string);
    expect(shown.length + Number(more?.[1])).toBe(13);
    expect(['team-lead', ...members].slice(0, shown.length)).toEqual(shown);

    const tasks = pane(screen, 'Tasks (15 pending');
    expect(tasks.at(-1)).toBe(`+${15 - (tasks.length - 2)} more`);
    const messages = pane(screen, 'Messages (20, 20 unread)');
    expect(messages[0]).toBe(`+${20 - (messages.length - 1)} more above`);
    expect(messages.at(-1)).toContain('message 20');
  });

  it('a small team: every member, task and message shows, and nothing says more', async () => {
    await makeTeam(dir.path, 'demo', ['alice', 'bob']);
    await addTask({ root: openFsStores(dir.path), team: 'demo', subject: 'only task' });
    await sendMessage({ root: openFsStores(dir.path), team: 'demo', to: 'alice', text: 'only message' });
    const screen = await watch();
    expect(screen.split('\n')[0]).toBe('mailroom watch · team demo · 3 members · 1 task · 1 message (1 unread)');
    expect(pane(screen, 'Roster (3)').slice(1).map((l) => l.split(' ')[0])).toEqual(['team-lead', 'alice', 'bob']);
    expect(pane(screen, 'Messages (1, 1 unread)')).toHaveLength(1);
    expect(screen).not.toMatch(/\+\d+ more/);
  });
});
