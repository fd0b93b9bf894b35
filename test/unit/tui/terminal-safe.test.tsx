/**
 * The watch screen shows text from agents (messages, task subjects and descriptions) with escape
 * sequences neutralised: a message that clears the screen or sets the window title is shown as
 * `\x1b…` text, in the panes and in the detail views.
 */
process.env.TZ = 'UTC';
import { cleanup, render } from 'ink-testing-library';
import { afterEach, expect, it } from 'vitest';
import { buildSnapshot } from '../../../src/core/live/snapshot.js';
import { WatchApp } from '../../../src/tui/app.js';
import { tick, waitForFrame } from '../../helpers/ink-frames.js';
import { messageView } from '../../helpers/snapshots.js';

afterEach(() => cleanup());

const HOSTILE = 'x\u001b]0;PWNED\u0007y\u001b[2Jz';

function snapshot() {
  const member = (name: string) => ({ agentId: `${name}@demo`, name, model: 'worker', joinedAt: 1, tmuxPaneId: '', cwd: '/w', subscriptions: [] });
  const config = { name: 'demo', createdAt: 1, leadAgentId: 'team-lead@demo', members: [member('team-lead'), member('alice')] };
  const messages = [messageView('alice', 'team-lead', `hello ${HOSTILE}`, '2026-03-01T12:00:01.000Z')];
  const tasks = [{ id: '1', subject: `task ${HOSTILE}`, description: `details ${HOSTILE}`, status: 'pending' as const, blocks: [], blockedBy: [] }];
  return buildSnapshot({ team: 'demo', config, exists: true, messages, tasks, departed: new Map() });
}

it('panes and detail views show escapes as text', async () => {
  const { lastFrame, stdin } = render(<WatchApp snapshot={snapshot()} columns={120} rows={30} onSend={async () => ''} onQuit={() => {}} />);
  const frame = await waitForFrame(lastFrame, (f) => f.includes('hello'));
  for (const f of [frame]) {
    expect(f).not.toContain('\u001b]0;PWNED');
    expect(f).not.toContain('\u001b[2J');
    expect(f).toContain('\\x1b]0;PWNED\\x07y');
  }
  stdin.write('2');
  await tick();
  stdin.write('\r');
  const detail = await waitForFrame(lastFrame, (f) => f.includes('details'));
  expect(detail).not.toContain('\u001b[2J');
  expect(detail).toContain('details x\\x1b]0;PWNED');
});
