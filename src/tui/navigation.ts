/**
 * Screen state helpers of the watch app: pane names, what Enter opens, who `s` sends to, and how
 * the rows are shared between the panes.
 */
import type { TeamSnapshot } from '../core/live/snapshot.js';
import { shareRows } from './fit.js';

/** The panes of the main view (`requests` only while a request is open). */
export type PaneName = 'roster' | 'tasks' | 'messages' | 'requests';

/** What fills the body: the three panes, or one opened item. */
export type View = { kind: 'main' } | { kind: 'member'; name: string } | { kind: 'task'; id: string } | { kind: 'message'; key: string };

/** The view Enter opens on row `index` of `pane`. */
export function openView(s: TeamSnapshot, pane: Exclude<PaneName, 'requests'>, index: number): View {
  if (pane === 'roster') {
    const m = s.members[index];
    return m ? { kind: 'member', name: m.name } : { kind: 'main' };
  }
  if (pane === 'tasks') {
    const t = s.tasks[index];
    return t ? { kind: 'task', id: t.task.id } : { kind: 'main' };
  }
  const message = s.messages[index];
  return message ? { kind: 'message', key: message.key } : { kind: 'main' };
}

/**
 * Recipients the lead can send to (members in the roster other than the lead), starting from
 * `preferred` when it is one, moved `step` places. Falls back to the lead itself when alone.
 */
export function nextRecipient(s: TeamSnapshot, preferred: string | undefined, step: number): string {
  const names = s.members.filter((m) => m.inRoster && !m.isLead).map((m) => m.name);
  if (names.length === 0) return s.lead;
  const from = preferred !== undefined && names.includes(preferred) ? names.indexOf(preferred) : 0;
  return names[(from + step + names.length) % names.length]!;
}

/**
 * Heights (rows, borders included) of the body parts for a screen of `rows` rows (header and
 * footer take one each). Each pane wants its content's rows (border 2, title 1, column header 1 in
 * roster and tasks); a pane gets at most that, at least room for one row and its `+N more` line,
 * and the rows left go to the pane missing most (fit.ts shareRows). Rows no pane wants stay blank
 * below the panes, so no pane shows empty rows.
 */
export function layout(rows: number, s: TeamSnapshot, openRequests = 0, liveLeases = 0): { body: number; roster: number; tasks: number; messages: number; requests: number; leases: number } {
  const body = Math.max(3, rows - 2);
  // Open requests wait for the lead: their pane comes first, as tall as its rows (border 2, title
  // 1), at most a quarter of the body (and its `+N more` line); the other three share the rest.
  const requests = openRequests === 0 ? 0 : Math.min(openRequests + 3, Math.max(4, Math.floor(body / 4)));
  // Live path leases: a pane under the roster, as tall as its rows, at most a fifth of the body.
  const leases = liveLeases === 0 ? 0 : Math.min(liveLeases + 3, Math.max(4, Math.floor(body / 5)));
  const wants = [Math.max(1, s.members.length) + 4, Math.max(1, s.tasks.length) + 4, Math.max(1, s.messages.length) + 3];
  const [roster, tasks, messages] = shareRows(body - requests - leases, wants, [6, 6, 5]) as [number, number, number];
  return { body, roster, tasks, messages, requests, leases };
}
