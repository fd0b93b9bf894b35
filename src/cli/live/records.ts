/**
 * The lines `mailroom watch` prints when it is not drawing a screen: one plain line per event, or
 * with `--json` one JSON object per line (NDJSON). Documented in docs/watch.md.
 */
import { describeEvent, type TeamEvent } from '../../core/events.js';
import type { TeamSnapshot } from '../../core/snapshot.js';

/** The JSON form of an event: `{at, team, kind, …}`; messages are flattened to their entry. */
export function eventRecord(team: string, atMs: number, e: TeamEvent): Record<string, unknown> {
  const head = { at: new Date(atMs).toISOString(), team };
  switch (e.kind) {
    case 'message': {
      const m = e.message;
      return { ...head, kind: 'message', to: m.to, from: m.entry.from, timestamp: m.entry.timestamp, status: m.status, line: m.line, entry: m.entry };
    }
    case 'task':
      return { ...head, kind: 'task', action: e.action, task: e.task, ...(e.previous ? { previous: e.previous } : {}) };
    default:
      return { ...head, ...e };
  }
}

/** The first record: who is in the team and what the board holds, when watching starts. */
export function readyRecord(s: TeamSnapshot, atMs: number): Record<string, unknown> {
  return {
    at: new Date(atMs).toISOString(),
    team: s.team,
    kind: 'ready',
    members: s.members.map((m) => ({ name: m.name, state: m.state, unread: m.unread, ...(m.currentTask ? { task: m.currentTask.id } : {}) })),
    tasks: s.counts.tasks,
    messages: s.messages.length,
    unread: s.counts.unread,
    ...(s.problems.length > 0 ? { problems: s.problems } : {}),
  };
}

/** `<ISO time>  <event line>`. */
export function eventLine(atMs: number, e: TeamEvent): string {
  return `${new Date(atMs).toISOString()}  ${describeEvent(e)}`;
}

/** The first plain line, e.g. `… watching team demo: 3 members (alice working, bob idle), 4 tasks, 12 messages`. */
export function readyLine(s: TeamSnapshot, atMs: number): string {
  const members = s.members.map((m) => `${m.name} ${m.state}`).join(', ');
  const tasks = s.counts.tasks.pending + s.counts.tasks.in_progress + s.counts.tasks.completed;
  return `${new Date(atMs).toISOString()}  watching team ${s.team}: ${s.members.length} members (${members}), ${tasks} tasks, ${s.messages.length} messages`;
}

/** One line per problem the snapshot flags (a corrupt inbox…), naming the command that repairs it. */
export function problemLines(s: TeamSnapshot, atMs: number): string[] {
  return s.problems.map((p) => `${new Date(atMs).toISOString()}  ${p.code}: ${p.message}${p.fix ? ` Run \`${p.fix}\`.` : ''}`);
}
