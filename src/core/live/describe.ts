/**
 * One-line human descriptions of messages and tasks, shared by the CLI, `watch` and the journal.
 */
import { parseMessageText, type ParsedText, type StructuredMessage } from '../../protocol/structured.js';

/** Describes a classified message text in one line (structured messages by type). */
export function describeText(parsed: ParsedText): string {
  switch (parsed.kind) {
    case 'plain':
      return parsed.text;
    case 'structured':
      return describeStructured(parsed.message);
    case 'invalid':
      return `[${parsed.type}, invalid: ${parsed.error}]`;
    case 'unknown':
      return `[${parsed.type}] ${JSON.stringify(parsed.raw)}`;
  }
}

/**
 * A message in at most `max` characters on one line, for a list or a quote: its summary when it
 * has one, else its text described as {@link describeText} does (a structured message by type, not
 * its stored JSON), whitespace runs as one space, cut with `…`.
 */
export function messagePreview(entry: { text: string; summary?: string | undefined }, max: number): string {
  const whole = (entry.summary ?? describeText(parseMessageText(entry.text))).replace(/\s+/g, ' ').trim();
  return whole.length > max ? `${whole.slice(0, max - 1)}…` : whole;
}

/** Describes a structured message in one line, e.g. `[shutdown request shutdown-1@bob] reason: done`. */
export function describeStructured(m: StructuredMessage): string {
  switch (m.type) {
    case 'idle_notification':
      return `[idle: ${m.idleReason ?? 'available'}]${m.completedTaskId ? ` completed #${m.completedTaskId}${m.completedStatus ? ` (${m.completedStatus})` : ''}` : ''}${m.failureReason ? ` failure: ${m.failureReason}` : ''}${m.summary ? ` — ${m.summary}` : ''}`;
    case 'task_assignment':
      return `[task assigned] #${m.taskId} "${m.subject}" by ${m.assignedBy}`;
    case 'task_completed':
      return `[task completed] #${m.taskId} "${m.taskSubject}"`;
    case 'shutdown_request':
      return `[shutdown request ${m.requestId}]${m.reason ? ` reason: ${m.reason}` : ''}`;
    case 'shutdown_approved':
      return `[shutdown approved ${m.requestId}]`;
    case 'shutdown_rejected':
      return `[shutdown rejected ${m.requestId}] reason: ${m.reason}`;
    case 'plan_approval_request':
      return `[plan approval request ${m.requestId}] ${firstLine(m.planContent)}`;
    case 'plan_approval_response':
      return `[plan ${m.approved ? 'approved' : 'rejected'} ${m.requestId}]${m.feedback ? ` ${m.feedback}` : ''}`;
    case 'permission_request':
      return `[permission request ${m.request_id}] ${m.tool_name}: ${m.description}`;
    case 'permission_response':
      return `[permission ${m.subtype === 'success' ? 'granted' : 'denied'} ${m.request_id}]`;
    case 'sandbox_permission_request':
      return `[sandbox request ${m.requestId}] host ${m.hostPattern.host}`;
    case 'sandbox_permission_response':
      return `[sandbox ${m.allow ? 'allowed' : 'denied'} ${m.requestId}] host ${m.host}`;
    case 'team_permission_update':
      return `[permission update] ${m.toolName} in ${m.directoryPath}`;
    case 'mode_set_request':
      return `[mode set] ${m.mode}`;
  }
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}
