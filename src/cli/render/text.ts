/**
 * Human-readable rendering of library results for the CLI (pure functions returning lines).
 */
import { describeText } from '../../core/describe.js';
import type { InboxMessage } from '../../core/inbox.js';
import type { TeamSummary } from '../../core/teams.js';
import type { TaskView } from '../../core/tasks.js';
import type { Task } from '../../protocol/task.js';

/**
 * One inbox message: `[3] 2026-…Z alice (unread): text` — `(new)` when this command just marked it
 * read (`--mark-read`); `raw` shows the stored text.
 */
export function messageLine(m: InboxMessage, raw = false): string {
  const flag = m.entry.read !== true ? ' (unread)' : m.newlyRead ? ' (new)' : '';
  const summary = m.entry.summary ? ` [${m.entry.summary}]` : '';
  const body = raw ? m.entry.text : describeText(m.parsed);
  return `${m.index + 1}. ${m.entry.timestamp} ${m.entry.from}${flag}${summary}: ${body}`;
}

/** Task list row: `#2 [pending] Write tests (owner: bob) blocked by #1`. */
export function taskLine(v: TaskView): string {
  const t = v.task;
  const owner = t.owner ? ` (owner: ${t.owner})` : '';
  const state = v.blocked ? ` blocked by ${v.openBlockers.map((b) => `#${b}`).join(', ')}` : v.ready ? ' ready' : '';
  return `#${t.id} [${t.status}] ${t.subject}${owner}${state}`;
}

/** Every field of a task, one per line. */
export function taskDetail(v: TaskView): string[] {
  const t: Task = v.task;
  const lines = [`Task #${t.id}: ${t.subject}`, `  status:      ${t.status}${v.blocked ? ' (blocked)' : v.ready ? ' (ready)' : ''}`];
  lines.push(`  owner:       ${t.owner || '-'}`);
  if (t.activeForm) lines.push(`  activeForm:  ${t.activeForm}`);
  lines.push(`  blocks:      ${t.blocks.map((b) => `#${b}`).join(', ') || '-'}`);
  lines.push(`  blockedBy:   ${t.blockedBy.map((b) => `#${b}`).join(', ') || '-'}${v.blocked ? ` (open: ${v.openBlockers.map((b) => `#${b}`).join(', ')})` : ''}`);
  if (t.metadata) lines.push(`  metadata:    ${JSON.stringify(t.metadata)}`);
  if (t.description) lines.push('', ...t.description.split('\n').map((l) => `  ${l}`));
  return lines;
}

/** `mailroom team show` output. */
export function teamDetail(s: TeamSummary): string[] {
  const c = s.config;
  const lines = [`Team ${c.name}${c.description ? ` — ${c.description}` : ''}`, `  created ${new Date(c.createdAt).toISOString()}, lead ${c.leadAgentId}`, '', 'Members:'];
  for (const m of s.members) {
    const bits = [m.isLead ? 'lead' : m.agentType ?? 'teammate', m.model, m.runtime ?? m.backendType, m.color].filter(Boolean).join(', ');
    lines.push(`  ${m.name.padEnd(16)} ${bits}${m.isActive === true ? ', active' : ''} — ${m.unread} unread`);
  }
  const t = s.tasks;
  lines.push('', `Tasks: ${t.pending} pending, ${t.in_progress} in progress, ${t.completed} completed`);
  return lines;
}
