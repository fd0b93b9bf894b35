/**
 * The watch screen fits the terminal (issue 14): at 80×24 every pane is as tall as its content
 * (no empty rows in the message pane), what does not fit is counted on a `+N more` line, every line
 * fits the width, counts are in words (1 message), the detail view shows a message once.
 */
process.env.TZ = 'UTC';
import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { WatchApp } from '../../../src/tui/app.js';
import { MessageDetail } from '../../../src/tui/detail-views.js';
import type { TeamSnapshot } from '../../../src/core/live/snapshot.js';
import { plain, waitForFrame } from '../../helpers/ink-frames.js';
import { largeSnapshot, richSnapshot } from '../../helpers/snapshots.js';

afterEach(() => cleanup());

/** The screen as `mailroom watch` draws it on an 80×24 terminal (run.tsx gives the app rows - 1). */
async function screen(snapshot: TeamSnapshot, columns = 80, rows = 23): Promise<string[]> {
  const { lastFrame } = render(<WatchApp snapshot={snapshot} columns={columns} rows={rows} onSend={async () => ''} onQuit={() => undefined} />);
  return (await waitForFrame(lastFrame, (f) => f.includes('q quit'))).split('\n');
}

/** The lines inside the pane whose title starts with `title` (between its borders). */
function pane(lines: string[], title: string): string[] {
  const top = lines.findIndex((l) => l.startsWith(`│ ${title}`)) - 1;
  const bottom = lines.findIndex((l, i) => i > top && l.startsWith('╰'));
  return lines.slice(top + 2, bottom).map((l) => l.replace(/^│ /, '').replace(/ *│$/, ''));
}

describe('watch at 80×24', () => {
  it('a small team: every member, task and message shows, no pane keeps empty rows, the footer is the last line', async () => {
    const lines = await screen(largeSnapshot(4, 3, 2));
    expect(lines).toHaveLength(23);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    expect(pane(lines, 'Roster (4)').slice(1).map((l) => l.split(' ')[0])).toEqual(['team-lead', 'agent-1', 'agent-2', 'agent-3']);
    expect(pane(lines, 'Tasks').slice(1).map((l) => l.split(' ')[0])).toEqual(['#1', '#2', '#3']);
    const messages = pane(lines, 'Messages (2, 2 unread)');
    expect(messages).toHaveLength(2);
    expect(messages.every((l) => l.trim() !== '')).toBe(true);
    expect(lines.join('\n')).not.toContain('more');
    expect(lines.at(-1)).toBe('Tab pane · ↑↓ move · Enter open · Esc back · s send · q quit');
  });

  it('a team a little too big: each member shows or is counted on the +N more line', async () => {
    const lines = await screen(richSnapshot());
    const roster = pane(lines, 'Roster (6)');
    const shown = roster.slice(1, -1).map((l) => l.split(' ')[0]);
    expect(shown).toEqual(['team-lead', 'alice', 'bob', 'carol', 'dave', 'eve'].slice(0, shown.length));
    expect(roster.at(-1)).toBe(`+${6 - shown.length} more`);
  });

  it('a big team: each pane shows what fits and counts the rest on a +N more line', async () => {
    const lines = await screen(largeSnapshot(50, 1000, 10_000));
    expect(lines).toHaveLength(23);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    const roster = pane(lines, 'Roster (50)');
    const shown = roster.slice(1, -1);
    expect(roster.at(-1)).toBe(`+${50 - shown.length} more`);
    expect(shown[0]?.startsWith('team-lead')).toBe(true);
    const tasks = pane(lines, 'Tasks');
    expect(tasks.at(-1)).toBe(`+${1000 - (tasks.length - 2)} more`);
    const messages = pane(lines, 'Messages (10000');
    expect(messages[0]).toBe(`+${10_000 - (messages.length - 1)} more above`);
    expect(messages.at(-1)).toContain('message 10000');
  });

  it('a team with more members than rows: the roster still ends with +N more when the other panes are small', async () => {
    const lines = await screen(largeSnapshot(30, 1, 1));
    const roster = pane(lines, 'Roster (30)');
    const shown = roster.slice(1, -1).length;
    expect(roster.at(-1)).toBe(`+${30 - shown} more`);
    expect(pane(lines, 'Tasks').slice(1)).toHaveLength(1);
    expect(pane(lines, 'Messages')).toHaveLength(1);
  });

  it('counts in words: 1 member, 1 task, 1 message', async () => {
    const snapshot = largeSnapshot(2, 1, 1);
    const one = { ...snapshot, members: snapshot.members.slice(0, 1) };
    const lines = await screen(one);
    expect(lines[0]).toBe('mailroom watch · team big · 1 member · 1 task · 1 message (1 unread)');
  });
});

describe('the message detail view', () => {
  it('shows a plain message once', () => {
    const s = richSnapshot();
    const frame = plain(render(<MessageDetail message={s.messages[1]!} members={s.members} height={12} width={80} />).lastFrame());
    expect(frame.match(/Parser started/g)).toHaveLength(1);
  });

  it('a long message: what does not fit is counted', () => {
    const s = richSnapshot();
    const long = { ...s.messages[1]!, entry: { ...s.messages[1]!.entry, text: Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n') } };
    const frame = plain(render(<MessageDetail message={long} members={s.members} height={12} width={80} />).lastFrame());
    expect(frame).toMatch(/\+\d+ more lines/);
    expect(frame).toContain('line 1');
    expect(frame).not.toContain('line 40');
  });
});
