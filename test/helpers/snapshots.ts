/**
 * A hand-built team snapshot covering every member state, board state and message kind, for
 * screen tests; and a generator of large teams for the render tests.
 */
import { describeText } from '../../src/core/live/describe.js';
import { messageKey } from '../../src/core/live/journal-observed.js';
import { buildSnapshot, type MessageView, type TeamSnapshot } from '../../src/core/live/snapshot.js';
import type { Member, TeamConfig } from '../../src/protocol/config.js';
import type { InboxEntry } from '../../src/protocol/inbox.js';
import { parseMessageText } from '../../src/protocol/structured.js';
import type { Task } from '../../src/protocol/task.js';

/** A message view as a tracker would hold it; `removed`: read, and gone from its inbox. */
export function messageView(from: string, to: string, text: string, timestamp: string, status: MessageView['status'] | 'removed' = 'unread'): MessageView {
  const entry: InboxEntry = { from, text, timestamp, read: status !== 'unread' };
  const parsed = parseMessageText(text);
  const view: MessageView = { key: messageKey(to, entry), to, entry, parsed, line: describeText(parsed), status: status === 'removed' ? 'read' : status };
  if (status === 'removed') view.removed = true;
  return view;
}

function member(name: string, extra: Partial<Member> = {}): Member {
  return { agentId: `${name}@demo`, name, model: 'worker', joinedAt: 1, tmuxPaneId: 'in-process', cwd: '/w', subscriptions: [], ...extra };
}

function task(id: string, subject: string, extra: Partial<Task> = {}): Task {
  return { id, subject, description: `Do ${subject}`, status: 'pending', blocks: [], blockedBy: [], ...extra };
}

const t = (s: number) => new Date(Date.UTC(2026, 2, 1, 12, 0, s)).toISOString();

/**
 * Team `demo`: lead; alice (tmux, isActive) working on #2; bob idle after an idle notice; carol
 * waiting on a permission request; dave with nothing yet; eve gone (left the roster).
 */
export function richSnapshot(): TeamSnapshot {
  const config: TeamConfig = {
    name: 'demo',
    description: 'demo team',
    createdAt: 1,
    leadAgentId: 'team-lead@demo',
    members: [
      member('team-lead', { model: 'claude-sonnet-4-6', tmuxPaneId: '' }),
      member('alice', { color: 'blue', backendType: 'tmux', isActive: true, tmuxPaneId: '%1', model: 'claude-opus-4-6' }),
      member('bob', { color: 'green', backendType: 'in-process' }),
      member('carol', { color: 'purple', backendType: 'in-process' }),
      member('dave', { color: 'orange', backendType: 'process' }),
    ],
  };
  const permission = { type: 'permission_request', request_id: 'perm-1-k3j9x2a', agent_id: 'carol', tool_name: 'Bash', tool_use_id: 'tu', description: 'rm -rf build', input: {}, permission_suggestions: [] };
  const messages = [
    messageView('team-lead', 'alice', 'Write the parser', t(1), 'removed'),
    messageView('alice', 'team-lead', 'Parser started\nsecond line', t(2), 'read'),
    messageView('bob', 'team-lead', JSON.stringify({ type: 'idle_notification', from: 'bob', timestamp: t(3), idleReason: 'available', completedTaskId: '1', completedStatus: 'resolved' }), t(3)),
    messageView('carol', 'team-lead', JSON.stringify(permission), t(4)),
    messageView('team-lead', 'dave', 'Welcome dave', t(5)),
  ];
  const tasks = [
    task('1', 'Design the grammar', { status: 'completed', owner: 'bob', blocks: ['2'] }),
    task('2', 'Write the parser', { status: 'in_progress', owner: 'alice', blockedBy: ['1'], blocks: ['3'] }),
    task('3', 'Write parser tests', { blockedBy: ['2'] }),
    task('4', 'Update the docs'),
  ];
  return buildSnapshot({ team: 'demo', config, exists: true, messages, tasks, departed: new Map([['eve', 'eve@demo']]) });
}

/** A team of `members` members, `tasks` tasks and `messages` messages spread over the inboxes. */
export function largeSnapshot(members: number, tasks: number, messages: number): TeamSnapshot {
  const names = ['team-lead', ...Array.from({ length: members - 1 }, (_, i) => `agent-${i + 1}`)];
  const config: TeamConfig = { name: 'big', createdAt: 1, leadAgentId: 'team-lead@big', members: names.map((n) => member(n, { agentId: `${n}@big` })) };
  const list = Array.from({ length: tasks }, (_, i) => task(String(i + 1), `task number ${i + 1}`, { owner: names[(i % (members - 1)) + 1] }));
  const views = Array.from({ length: messages }, (_, i) => messageView(names[(i % (members - 1)) + 1]!, 'team-lead', `message ${i + 1}`, new Date(Date.UTC(2026, 2, 1) + i * 1000).toISOString()));
  return buildSnapshot({ team: 'big', config, exists: true, messages: views, tasks: list, departed: new Map() });
}
