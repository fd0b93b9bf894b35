/**
 * Human-readable output of `mailroom run`: progress lines (each message that reaches the lead) and
 * the closing report (who did what, timings, shutdown, files to look at).
 */
import { describeText } from '../../core/live/describe.js';
import type { InboxEntry } from '../../protocol/inbox.js';
import { parseMessageText } from '../../protocol/structured.js';
import type { MemberReport, RunReport, TaskReport } from '../../runtime/run/report.js';

/** Seconds with two decimals, e.g. `+1.25s`. */
export function offset(ms: number): string {
  return `+${(ms / 1000).toFixed(2)}s`;
}

/** One progress line (`from → lead`, both by member name), or undefined for idle notifications unless `verbose`. */
export function progressLine(entry: InboxEntry, atMs: number, verbose: boolean, lead: string): string | undefined {
  const parsed = parseMessageText(entry.text);
  if (!verbose && parsed.kind === 'structured' && parsed.message.type === 'idle_notification') return undefined;
  return `  ${offset(atMs).padStart(8)}  ${entry.from} → ${lead}: ${describeText(parsed)}`;
}

/** The closing report. */
export function reportLines(r: RunReport): string[] {
  const done = r.tasks.filter((t) => t.status === 'completed').length;
  const width = Math.max(8, ...r.tasks.map((t) => t.subject.length));
  return [
    '',
    'Tasks (who did what, when):',
    ...r.tasks.map((t) => taskRow(t, width)),
    '',
    'Members:',
    ...r.members.map(memberRow),
    '',
    `Shutdown: ${r.shutdown.map((s) => `${s.name} ${s.outcome}`).join(', ') || '(no teammates)'}`,
    `${r.complete ? 'Done' : r.timedOut ? 'Timed out' : r.interrupted ? 'Interrupted' : 'Stopped'} in ${(r.durationMs / 1000).toFixed(2)}s: ${done}/${r.tasks.length} tasks completed. Team "${r.team}" is in ${r.root}.`,
    ...(r.outputs.length || r.olderOutputs.length ? ['', 'Files to look at:', ...r.outputs.map((o) => `  cat ${o}`)] : []),
    ...r.olderOutputs.map((o) => `  Not written by this run (from before): ${o}`),
  ];
}

function memberRow(m: MemberReport): string {
  const completed = m.completed.length ? `completed ${m.completed.map((id) => `#${id}`).join(', ')}` : 'completed nothing';
  const failed = m.failed.length ? `, failed ${m.failed.map((id) => `#${id}`).join(', ')}` : '';
  const turns = m.failedTurns ? `, ${m.failedTurns} failed turn${m.failedTurns > 1 ? 's' : ''} (last: ${m.lastFailure ?? 'no reason given'})` : '';
  return `  ${m.name} (${m.model}): ${completed}${failed}${turns} — ${m.busyMs} ms running commands`;
}

/** The stderr line for a member's failed turn. */
export function turnFailedLine(name: string, reason: string, atMs: number): string {
  return `  ${offset(atMs).padStart(8)}  ${name}: turn failed: ${reason}`;
}

function taskRow(t: TaskReport, width: number): string {
  const exit = t.exitCode === undefined ? '' : `exit ${t.exitCode}`;
  const when = t.startMs === undefined ? '' : `${offset(t.startMs)} for ${t.durationMs ?? 0} ms`;
  const tail = (t.lastOutput ? `  (${t.lastOutput})` : '') + (t.beforeShutdown ? `  — was ${t.beforeShutdown.status}${t.beforeShutdown.owner ? ` (${t.beforeShutdown.owner})` : ''} until the shutdown returned it to ${t.status}` : '');
  return `  #${t.id.padEnd(3)} ${t.subject.padEnd(width)}  ${(t.owner ?? '-').padEnd(10)} ${t.status.padEnd(11)} ${exit.padEnd(7)} ${when}${tail}`;
}

/** Says whether a member's failure is worth printing: its first one, and each whose reason changed. */
export class RepeatFilter {
  private readonly last = new Map<string, string>();

  /** True when `reason` differs from the last one shown for `name` (which it then becomes). */
  show(name: string, reason: string): boolean {
    if (this.last.get(name) === reason) return false;
    this.last.set(name, reason);
    return true;
  }
}
