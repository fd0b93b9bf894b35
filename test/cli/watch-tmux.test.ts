import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { REFERENCE_2_1_109, copyTree } from '../helpers/store-files.js';
import type { TempDir } from '../helpers/temp-dir.js';
import { appendEntries, idleEntry, teamPaths, writeJsonAtomic } from '../helpers/claude-writer.js';
import { renameCompatTeam } from '../helpers/session-team.js';
import { sh, startTmux, type TmuxSession } from '../helpers/tmux.js';

const TEAM = 'session-1a2b3c4d';

describe('mailroom watch in a real terminal (tmux 120×40)', () => {
  let dir: TempDir;
  let tmux: TmuxSession | undefined;
  beforeEach(async () => {
    dir = await copyTree(`${REFERENCE_2_1_109}/3-teammate-idle`);
    await renameCompatTeam(dir.path, TEAM);
  });
  afterEach(async () => {
    await tmux?.kill();
    await dir.cleanup();
  });

  it("follows a Claude Code session team as it changes, sends as the lead with s, quits with q", async () => {
    const paths = teamPaths(dir.path, TEAM);
    const command = `env TZ=UTC CLAUDE_CONFIG_DIR=${sh(dir.path)} MAILROOM_TEAM= ${sh(process.execPath)} ${sh(BIN)} watch --claude; echo "EXIT CODE $?"; sleep 30`;
    tmux = await startTmux(command);

    let screen = await tmux.waitFor((s) => s.includes('Roster (2)'));
    expect(screen.split('\n')[0]).toBe(`mailroom watch · team ${TEAM} · 2 members · 2 tasks · 2 messages (2 unread)`);
    expect(screen).toMatch(/│ observer +working +in-process +claude-opus-4-6/);
    expect(screen).toMatch(/│ #2 +pending +- +ready +Summarise fixture data/);
    expect(screen).toContain('13:21:16 ● observer  → team-lead HELLO-FROM-OBSERVER');

    await appendEntries(paths.inbox('team-lead'), idleEntry('observer', '2026-11-29T13:30:00.000Z', { completedTaskId: '1', completedStatus: 'resolved' }));
    await writeJsonAtomic(paths.task('3'), { id: '3', subject: 'Review the summary', description: '', status: 'pending', blocks: [], blockedBy: ['2'] });
    screen = await tmux.waitFor((s) => /│ observer +idle /.test(s) && s.includes('#3') && s.includes('[idle: available] completed #1 (resolved)'));
    expect(screen).toMatch(/│ #3 +pending +- +blocked by #2 +Review the summary/);
    expect(screen).toContain('13:30:00 ● observer  → team-lead [idle: available] completed #1 (resolved)');

    await tmux.send('s');
    await tmux.waitFor((s) => s.includes('Send a message as team-lead') && s.includes('to: observer'));
    await tmux.send('please summarise', { literal: true });
    await tmux.send('Enter');
    screen = await tmux.waitFor((s) => s.includes('team-lead → observer  please summarise'));
    const inbox = JSON.parse(await readFile(paths.inbox('observer'), 'utf8')) as Array<{ from: string; text: string }>;
    expect(inbox.at(-1)).toMatchObject({ from: 'team-lead', text: 'please summarise' });

    await tmux.send('Tab');
    await tmux.send('Enter');
    await tmux.waitFor((s) => s.includes('Task #1 — Esc to go back') && s.includes('First task: gather the on-disk fixture data.'));
    await tmux.send('Escape');
    await tmux.waitFor((s) => s.includes('Roster (2)'));

    await tmux.send('q');
    screen = await tmux.waitFor((s) => s.includes('EXIT CODE'));
    expect(screen).toContain('EXIT CODE 0');
    const journal = await readFile(paths.journal, 'utf8');
    expect(journal).toContain('"completedTaskId\\":\\"1\\"');
    expect(journal).toContain('"text":"please summarise"');
  });

  it('prints plain lines instead of entering raw mode when stdin is not a terminal', async () => {
    const command = `true | env CLAUDE_CONFIG_DIR=${sh(dir.path)} ${sh(process.execPath)} ${sh(BIN)} watch --claude --team ${TEAM}; echo "EXIT CODE $?"; sleep 30`;
    tmux = await startTmux(command);
    const screen = (await tmux.waitFor((s) => s.includes('watching team'))).replace(/\n/g, '');
    expect(screen).toContain(`watching team ${TEAM}: 2 members (team-lead unknown, observer working), 2 tasks, 2 messages`);
    expect(screen).not.toContain('Raw mode');
    await tmux.send('C-c');
    expect(await tmux.waitFor((s) => s.includes('EXIT CODE'))).toContain('EXIT CODE 0');
  });
});
