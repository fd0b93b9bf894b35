/**
 * Human-readable rendering of library results for the CLI (pure functions returning lines).
 */
import { describeText, messagePreview } from '../../core/live/describe.js';
import { terminalSafe } from '../../core/text/terminal-text.js';
import type { DeadLetter } from '../../domain/dead-letters.js';
import type { InboxMessage } from '../../core/messages/inbox-read.js';
import type { MemberSummary, TeamSummary } from '../../core/teams/team-lifecycle.js';
import type { TaskView } from '../../core/tasks/board.js';
import type { Task } from '../../protocol/task.js';
import { knownModel } from '../../core/members/known-model.js';
import { askOf, inReplyTo, isLateReply } from '../../domain/replies.js';
import { fenceOf } from '../../domain/task-fence.js';

/**
 * One inbox message: `[3] 2026-…Z alice (unread): text` — `(new)` when this command just marked it
 * read (`--mark-read`); `raw` shows the stored text.
 */
export function messageLine(m: InboxMessage, raw = false): string {
  const failed = m.verified === false && m.reason !== undefined;
  // Signed teams: a message that failed verification is shown as withheld (its text only with --raw), one from a sender that cannot sign as unverified.
  const trust = failed ? ` (failed verification: ${m.check})` : m.verified === false ? ' (unverified)' : '';
  const flag = (m.quarantined ? ' (quarantined)' : '') + (m.entry.read !== true ? ' (unread)' : m.newlyRead ? ' (new)' : '') + trust;
  const summary = m.entry.summary && !failed ? ` [${m.entry.summary}]` : '';
  const body = raw ? m.entry.text : failed ? `[withheld: ${m.reason}]` : describeText(m.parsed);
  return `${m.index + 1}. ${m.entry.timestamp} ${m.entry.from}${flag}${askNote(m.entry)}${summary}: ${body}`;
}

/** ` (asks for a reply)`, ` (reply to <msg_id>)` or ` (late reply to <msg_id>: its ask had timed out)`, else ''. */
function askNote(entry: InboxMessage['entry']): string {
  const answers = inReplyTo(entry);
  if (answers !== undefined) return isLateReply(entry) ? ` (late reply to ${answers}: its ask had timed out)` : ` (reply to ${answers})`;
  return askOf(entry) ? ' (asks for a reply)' : '';
}

/** The board state of a task: `ready`, `blocked by #1 #2`, or `-` (owned, or done). */
export function boardState(v: TaskView): string {
  if (v.blocked) return `blocked by ${v.openBlockers.map((b) => `#${b}`).join(' ')}`;
  return v.ready ? 'ready' : '-';
}

/**
 * `mailroom task list` as a table, the board state in its own column and the subject last (so a
 * long subject does not push the other columns):
 * ```
 * ID  STATUS       OWNER  BOARD          SUBJECT
 * #1  completed    alice  -              Collect papers
 * #2  pending      -      ready          Summarise them
 * ```
 */
export function taskTable(views: readonly TaskView[]): string[] {
  const rows = views.map((v) => [`#${v.task.id}`, v.task.status, v.task.owner || '-', boardState(v), v.task.subject]);
  const header = ['ID', 'STATUS', 'OWNER', 'BOARD', 'SUBJECT'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] as number))).join('  ');
  return [line(header), ...rows.map(line)];
}

/**
 * `mailroom dead-letter list` as a table like {@link taskTable}, the message last: its id (what
 * `dead-letter retry` takes), when it was dead-lettered, sender, recipient, and the message on one
 * line ({@link messagePreview}: summary, or the text with structured messages by type).
 * ```
 * ID                                    DEAD SINCE                FROM       TO   MESSAGE
 * 69565125-d065-45ad-8680-6df022272a2d  2026-12-07T22:54:15.450Z  team-lead  bob  [plan approved r1]
 * ```
 */
export function deadLetterTable(letters: readonly DeadLetter[]): string[] {
  const rows = letters.map((l) => [l.id, l.at, l.entry.from, l.to, messagePreview(l.entry, 80)].map(terminalSafe));
  const header = ['ID', 'DEAD SINCE', 'FROM', 'TO', 'MESSAGE'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] as number))).join('  ');
  return [line(header), ...rows.map(line)];
}

/** `Updated task #3: pending, owner bob, blocked by #1, blocks #5` — the task after `task update`. */
export function updatedLine(t: Task): string {
  const parts = [t.status, ...(t.owner ? [`owner ${t.owner}`] : []), ...(t.blockedBy.length ? [`blocked by ${t.blockedBy.map((b) => `#${b}`).join(' ')}`] : []), ...(t.blocks.length ? [`blocks ${t.blocks.map((b) => `#${b}`).join(' ')}`] : [])];
  return `Updated task #${t.id}: ${parts.join(', ')}`;
}

/** Every field of a task, one per line. */
export function taskDetail(v: TaskView): string[] {
  const t: Task = v.task;
  const lines = [`Task #${t.id}: ${t.subject}`, `  status:      ${t.status}${v.blocked ? ' (blocked)' : v.ready ? ' (ready)' : ''}`];
  lines.push(`  owner:       ${t.owner || '-'}`);
  const fence = fenceOf(t);
  // The claim's fencing token (epoch ms of the claim, or one more than the last: docs/cli.md "Tasks").
  if (fence > 0) lines.push(`  fencing:     ${fence} (token of the latest claim; an owner's writes carry it)`);
  if (t.activeForm) lines.push(`  activeForm:  ${t.activeForm}`);
  lines.push(`  blocks:      ${t.blocks.map((b) => `#${b}`).join(', ') || '-'}`);
  lines.push(`  blockedBy:   ${t.blockedBy.map((b) => `#${b}`).join(', ') || '-'}${v.blocked ? ` (open: ${v.openBlockers.map((b) => `#${b}`).join(', ')})` : ''}`);
  if (t.metadata) lines.push(`  metadata:    ${JSON.stringify(t.metadata)}`);
  if (t.description) lines.push('', ...t.description.split('\n').map((l) => `  ${l}`));
  return lines;
}

/**
 * A member's presence in `team show`: `idle (pid 123 on host-a)`, `stopped (nothing runs it)`; a
 * member mailroom does not run (the lead, Claude Code's own teammates: no member record) and that
 * holds no claim has no heartbeat to judge by, and says so and why (`--json`: state `unknown`).
 */
function presenceText(m: MemberSummary): string {
  const p = m.presence;
  if (p.state === 'unknown' || (p.state === 'stopped' && m.runtime === undefined)) return 'no heartbeat: mailroom does not run it';
  if (p.state === 'stopped') return 'stopped (nothing runs it)';
  const where = p.pid !== undefined ? ` (pid ${p.pid}${p.host ? ` on ${p.host}` : ''})` : '';
  return p.state === 'dead' ? `dead: no heartbeat since ${new Date(p.lastBeatAt ?? 0).toISOString()}${where}` : `${p.state}${where}`;
}

/** `mailroom team show` output. */
export function teamDetail(s: TeamSummary): string[] {
  const c = s.config;
  const lines = [`Team ${c.name}${c.description ? ` — ${c.description}` : ''}`, `  created ${new Date(c.createdAt).toISOString()}, lead ${c.leadAgentId}`, '', 'Members:'];
  for (const m of s.members) {
    const bits = [m.isLead ? 'lead' : m.agentType ?? 'teammate', knownModel(m.model), m.runtime ?? m.backendType, m.color].filter(Boolean).join(', ');
    const can = m.capabilities?.length ? ` — can: ${m.capabilities.join(', ')}` : '';
    const shown = m.name.length > 40 ? `${m.name.slice(0, 40)}…` : m.name;
    const unread = m.problem ? `cannot be served: ${m.problem.code}` : `${presenceText(m)}, ${m.unread} unread`;
    lines.push(`  ${shown.padEnd(16)} ${bits}${m.isActive === true ? ', active' : ''} — ${unread}${can}`);
  }
  for (const m of s.members) if (m.problem) lines.push('', `${m.problem.code}: ${m.problem.message}`);
  const t = s.tasks;
  lines.push('', `Tasks: ${t.pending} pending, ${t.in_progress} in progress, ${t.completed} completed`);
  return lines;
}
