/**
 * The lines `mailroom watch` prints when it is not drawing a screen: one plain line per event, or
 * with `--json` one JSON object per line (NDJSON). Documented in docs/watch.md.
 */
import { memberCount } from '../../core/live/member-count.js';
import { plural } from '../../core/text/plural.js';
import { describeEvent, type TeamEvent } from '../../core/live/watch-events.js';
import type { TeamSnapshot } from '../../core/live/snapshot.js';
import type { OpenRequest } from '../../core/messages/approvals.js';
import type { PathLease } from '../../protocol/path-lease.js';

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
  return `${new Date(atMs).toISOString()}  watching team ${s.team}: ${memberCount(s.members)} (${members}), ${plural(tasks, 'task')}, ${plural(s.messages.length, 'message')}`;
}

/** One line per problem the snapshot flags (a corrupt inbox…), naming the command that repairs it. */
export function problemLines(s: TeamSnapshot, atMs: number): string[] {
  return s.problems.map((p) => `${new Date(atMs).toISOString()}  ${p.code}: ${p.message}${p.fix ? ` Run \`${p.fix}\`.` : ''}`);
}

/**
 * A request that opened (`open`: listed when watching starts, or sent since) or was answered, as
 * one line: `request perm-… (permission) from alice open: Bash: npm publish — mailroom approve perm-… / deny perm-… --reason …`.
 */
export function requestLine(atMs: number, r: OpenRequest, action: 'open' | 'answered'): string {
  const head = `${new Date(atMs).toISOString()}  request ${r.id} (${r.kind}) from ${r.from}`;
  return action === 'answered' ? `${head} answered` : `${head} open: ${r.summary} — \`mailroom approve ${r.id}\` or \`mailroom deny ${r.id} --reason …\``;
}

/** The JSON form of {@link requestLine}: `{at, team, kind: "request", action, id, requestKind, from, summary, timestamp}`. */
export function requestRecord(team: string, atMs: number, r: OpenRequest, action: 'open' | 'answered'): Record<string, unknown> {
  return { at: new Date(atMs).toISOString(), team, kind: 'request', action, ...requestFields(r) };
}

/** A request's fields in the ready record and {@link requestRecord}. */
export function requestFields(r: OpenRequest): Record<string, unknown> {
  return { id: r.id, requestKind: r.kind, from: r.from, to: r.to, timestamp: r.timestamp, summary: r.summary, message: r.message };
}

/** One line for a path lease `watch` saw appear (`held`) or end: who holds which paths, until when. */
export function leaseLine(atMs: number, l: PathLease, action: 'held' | 'ended'): string {
  const head = `${new Date(atMs).toISOString()}  lease ${l.id} of ${l.holder}`;
  if (action === 'ended') return `${head} ended: ${l.paths.join(', ')} free`;
  return `${head} (${l.shared ? 'shared' : 'exclusive'}): ${l.paths.join(', ')} until ${new Date(l.expiresAt).toISOString()} or while its runtime beats${l.reason ? ` — ${l.reason}` : ''}`;
}

/** The JSON form of {@link leaseLine}: `{at, team, kind: "lease", action, lease}`. */
export function leaseRecord(team: string, atMs: number, l: PathLease, action: 'held' | 'ended'): Record<string, unknown> {
  return { at: new Date(atMs).toISOString(), team, kind: 'lease', action, lease: l };
}
