process.env.TZ = 'UTC';
import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { WatchApp } from '../../../src/tui/app.js';
import { tick, waitForFrame } from '../../helpers/ink-frames.js';
import { richSnapshot } from '../../helpers/snapshots.js';

afterEach(() => cleanup());

const ESC = '\u001b';

function app(onSend: (to: string, text: string) => Promise<string> = async (to) => `sent to ${to}`) {
  const quits: number[] = [];
  const sends: Array<[string, string]> = [];
  const instance = render(
    <WatchApp
      snapshot={richSnapshot()}
      columns={100}
      rows={40}
      onSend={(to, text) => {
        sends.push([to, text]);
        return onSend(to, text);
      }}
      onQuit={() => quits.push(1)}
    />,
  );
  return { ...instance, quits, sends };
}

async function press(stdin: { write(s: string): void }, ...keys: string[]) {
  for (const k of keys) {
    stdin.write(k);
    await tick();
  }
}

describe('WatchApp', () => {
  it('shows the header, the three panes and the key help', async () => {
    const { lastFrame } = app();
    const frame = await waitForFrame(lastFrame, (f) => f.includes('Messages'));
    expect(frame.split('\n')[0]).toBe('mailroom watch · team demo · 5 members (1 left) · 4 tasks · 5 messages (3 unread)');
    expect(frame).toContain('Roster (6)');
    expect(frame).toContain('Tasks (2 pending, 1 in progress, 1 completed)');
    expect(frame).toContain('Messages (5, 3 unread)');
    expect(frame.split('\n').at(-1)).toBe('Tab pane · ↑↓ move · Enter open · Esc back · s send · q quit');
  });

  it('switches to the task board, moves down and opens a task; Esc goes back', async () => {
    const { lastFrame, stdin } = app();
    await press(stdin, '\t', 'j', '\r');
    await waitForFrame(lastFrame, (f) => f.includes('Task #2 — Esc to go back') && f.includes('status: in_progress · owner: alice'));
    await press(stdin, ESC);
    await waitForFrame(lastFrame, (f) => f.includes('Roster (6)'));
  });

  it('opens the newest message from the message pane', async () => {
    const { lastFrame, stdin } = app();
    await press(stdin, '3', '\r');
    await waitForFrame(lastFrame, (f) => f.includes('from team-lead to dave at 2026-03-01T12:00:05.000Z'));
  });

  it('takes several keys arriving in one chunk (fast typing, tmux send-keys)', async () => {
    const { lastFrame, stdin } = app();
    await press(stdin, 'jj\r');
    await waitForFrame(lastFrame, (f) => f.includes('Member bob — Esc to go back') && f.includes('state: idle (idle notice at 2026-03-01T12:00:03.000Z)'));
  });

  it('takes Tab and Backspace inside a chunk too', async () => {
    const { lastFrame, stdin } = app();
    await press(stdin, '\tjj\r');
    await waitForFrame(lastFrame, (f) => f.includes('Task #3 — Esc to go back'));
    await press(stdin, ESC, 'sab\u007fc');
    await waitForFrame(lastFrame, (f) => f.includes('> ac'));
  });

  it('sends a message as the lead to the chosen recipient and shows the result', async () => {
    const { lastFrame, stdin, sends } = app();
    await press(stdin, 'j', 'j', 'j', 's');
    await waitForFrame(lastFrame, (f) => f.includes('Send a message as team-lead') && f.includes('to: carol'));
    await press(stdin, 'h', 'i', '!', '\u007f', '\t');
    await waitForFrame(lastFrame, (f) => f.includes('to: dave') && f.includes('> hi'));
    await press(stdin, '\r');
    await waitForFrame(lastFrame, (f) => f.includes('q quit │ sent to dave'));
    expect(sends).toEqual([['dave', 'hi']]);
  });

  it('does not send an empty message, and Esc cancels the form', async () => {
    const { lastFrame, stdin, sends } = app();
    await press(stdin, 's', '\r');
    await waitForFrame(lastFrame, (f) => f.includes('Send a message as team-lead'));
    await press(stdin, ESC);
    await waitForFrame(lastFrame, (f) => f.includes('Roster (6)'));
    expect(sends).toEqual([]);
  });

  it('shows a failed send in the footer', async () => {
    const { lastFrame, stdin } = app(async () => {
      throw new Error('lock busy');
    });
    await press(stdin, 's', 'x', '\r');
    await waitForFrame(lastFrame, (f) => f.includes('send failed: lock busy'));
  });

  it('quits on q', async () => {
    const { stdin, quits } = app();
    await press(stdin, 'q');
    expect(quits).toEqual([1]);
  });
});
