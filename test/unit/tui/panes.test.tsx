process.env.TZ = 'UTC';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { RosterPane, rosterColumns } from '../../../src/tui/roster-pane.js';
import { fitColumns, fitText, listWindow, shareRows } from '../../../src/tui/fit.js';
import { TasksPane } from '../../../src/tui/tasks-pane.js';
import { MessagesPane } from '../../../src/tui/messages-pane.js';
import { MemberDetail, MessageDetail, TaskDetail } from '../../../src/tui/detail-views.js';
import { SendForm } from '../../../src/tui/send-form.js';
import { plain } from '../../helpers/ink-frames.js';
import { largeSnapshot, richSnapshot } from '../../helpers/snapshots.js';

afterEach(() => cleanup());

const rows = (frame: string) => frame.split('\n').map((l) => l.replace(/^│ ?/, '').replace(/ *│$/, '').trimEnd());

describe('RosterPane', () => {
  it('shows each member with state, backend, model, task, unread count and last activity', () => {
    const s = richSnapshot();
    const frame = plain(render(<RosterPane members={s.members} selected={0} focused height={11} width={100} />).lastFrame());
    expect(rows(frame).slice(1, 10)).toEqual([
      'Roster (6)',
      'NAME        STATE   BACKEND    MODEL             TASK                            UNREAD LAST',
      'team-lead * unknown -          claude-sonnet-4-6 -                               2      12:00:05',
      'alice       working tmux       claude-opus-4-6   #2 Write the parser             0      12:00:02',
      'bob         idle    in-process worker            -                               0      12:00:03',
      'carol       waiting in-process worker            -                               0      12:00:04',
      'dave        unknown process    worker            -                               1      -',
      'eve         left    -          -                 -                               0      -',
      '',
    ]);
  });

  it('sizes columns to their content; on a narrow terminal the widest give way first, unread and last activity stay', () => {
    const s = richSnapshot();
    expect(rosterColumns(s.members, 96)).toEqual([11, 7, 10, 17, 31, 6, 8]);
    const narrow = rosterColumns(s.members, 60);
    expect(narrow.reduce((a, b) => a + b, 0) + 6).toBe(60);
    expect(narrow.slice(5)).toEqual([6, 8]);
    expect(narrow[3]).toBeLessThan(17);
  });

  it('scrolls so that the selected member of a large roster is visible', () => {
    const s = largeSnapshot(50, 1, 1);
    const frame = plain(render(<RosterPane members={s.members} selected={42} focused height={10} width={100} />).lastFrame());
    const names = rows(frame).slice(3, 9).map((l) => l.split(' ')[0]);
    expect(names).toEqual(['agent-38', 'agent-39', 'agent-40', 'agent-41', 'agent-42', '+45']);
    expect(rows(frame)[8]).toBe('+45 more (38 above, 7 below)');
  });
});

describe('TasksPane', () => {
  it('shows status, owner, blocked/ready, subject and what each task blocks', () => {
    const s = richSnapshot();
    const frame = plain(render(<TasksPane tasks={s.tasks} selected={0} focused={false} height={9} width={100} />).lastFrame());
    expect(rows(frame).slice(1, 7)).toEqual([
      'Tasks (2 pending, 1 in progress, 1 completed)',
      'ID  STATUS      OWNER BOARD         SUBJECT                                               BLOCKS',
      '#1  completed   bob                 Design the grammar                                    #2',
      '#2  in_progress alice               Write the parser                                      #3',
      '#3  pending     -     blocked by #2 Write parser tests                                    -',
      '#4  pending     -     ready         Update the docs                                       -',
    ]);
  });

  it('says when there are no tasks', () => {
    const frame = plain(render(<TasksPane tasks={[]} selected={0} focused={false} height={6} width={100} />).lastFrame());
    expect(frame).toContain('(no tasks)');
  });
});

describe('MessagesPane', () => {
  it('shows the flow across inboxes, structured messages by type, unread marked', () => {
    const s = richSnapshot();
    const frame = plain(render(<MessagesPane messages={s.messages} members={s.members} selected={4} focused height={9} width={100} />).lastFrame());
    expect(rows(frame).slice(1, 7)).toEqual([
      'Messages (5, 3 unread)',
      '12:00:01   team-lead → alice     Write the parser',
      '12:00:02   alice     → team-lead Parser started second line',
      '12:00:03 ● bob       → team-lead [idle: available] completed #1 (resolved)',
      '12:00:04 ● carol     → team-lead [permission request perm-1-k3j9x2a] Bash: rm -rf build',
      '12:00:05 ● team-lead → dave      Welcome dave',
    ]);
  });

  it('shows the newest messages of a long flow', () => {
    const s = largeSnapshot(5, 0, 10_000);
    const frame = plain(render(<MessagesPane messages={s.messages} members={s.members} selected={9_999} focused height={8} width={100} />).lastFrame());
    expect(rows(frame)[2]).toBe('+9996 more above');
    expect(rows(frame).at(-3)).toContain('message 9999');
    expect(rows(frame).at(-2)).toContain('message 10000');
  });
});

describe('fitting the screen (fit.ts)', () => {
  it('listWindow: everything when it fits, else one line kept for +N more, the selected row shown', () => {
    expect(listWindow(3, 0, 3)).toEqual({ start: 0, end: 3 });
    expect(listWindow(10, 0, 4)).toEqual({ start: 0, end: 3, more: '+7 more', moreOnTop: false });
    expect(listWindow(10, 9, 4)).toEqual({ start: 7, end: 10, more: '+7 more above', moreOnTop: true });
    expect(listWindow(10, 5, 4)).toEqual({ start: 3, end: 6, more: '+7 more (3 above, 4 below)', moreOnTop: false });
  });

  it('shareRows: no pane gets more than it wants, rows no pane wants are left over', () => {
    expect(shareRows(21, [9, 6, 5], [6, 6, 5])).toEqual([9, 6, 5]);
    expect(shareRows(21, [54, 1004, 10003], [6, 6, 5])).toEqual([7, 7, 7]);
    expect(shareRows(21, [8, 40, 30], [6, 6, 5])).toEqual([7, 7, 7]);
    expect(shareRows(30, [8, 40, 30], [6, 6, 5])).toEqual([8, 11, 11]);
  });

  it('fitColumns: content width, the rest column takes what is left, shrinking the widest first', () => {
    const cols = [
      { header: 'A', widest: 10, min: 3 },
      { header: 'B', widest: 4, min: 4, rest: true },
      { header: 'C', widest: 20, min: 5, max: 12 },
    ];
    expect(fitColumns(cols, 40)).toEqual([10, 16, 12]);
    expect(fitColumns(cols, 20)).toEqual([7, 4, 7]);
  });

  it('fitText: long lines wrap, and what does not fit is counted', () => {
    expect(fitText('abcdef\nx', 4, 5)).toEqual(['abcd', 'ef', 'x']);
    expect(fitText('1\n2\n3\n4\n5', 10, 3)).toEqual(['1', '2', '+3 more lines']);
  });
});

describe('detail views and the send form', () => {
  it('opens a member with its state evidence and inbox', () => {
    const s = richSnapshot();
    const carol = s.members.find((m) => m.name === 'carol')!;
    const frame = plain(render(<MemberDetail member={carol} messages={s.messages} height={14} width={100} />).lastFrame());
    expect(frame).toContain('Member carol — Esc to go back');
    expect(frame).toContain('state: waiting (waiting for an answer to permission request perm-1-k3j9x2a)');
    expect(frame).toContain('agentId: carol@demo · backend: in-process · model: worker · color: purple');
    expect(frame).toContain('Inbox: 0 messages, 0 unread');
  });

  it('opens a task with every field', () => {
    const s = richSnapshot();
    const frame = plain(render(<TaskDetail view={s.tasks[2]!} height={12} width={100} />).lastFrame());
    for (const text of ['Task #3 — Esc to go back', 'Write parser tests', 'status: pending (blocked by #2) · owner: -', 'blocks: - · blocked by: #2', 'Do Write parser tests']) {
      expect(frame).toContain(text);
    }
  });

  it('opens a structured message pretty-printed', () => {
    const s = richSnapshot();
    const frame = plain(render(<MessageDetail message={s.messages[3]!} members={s.members} height={20} width={100} />).lastFrame());
    expect(frame).toContain('from carol to team-lead at 2026-03-01T12:00:04.000Z · unread');
    expect(frame).toContain('"tool_name": "Bash",');
  });

  it('shows the send form with recipient and text', () => {
    const frame = plain(render(<SendForm from="team-lead" to="alice" text="hi there" height={6} />).lastFrame());
    expect(frame).toContain('Send a message as team-lead');
    expect(frame).toContain('to: alice');
    expect(frame).toContain('> hi there');
  });
});
