/**
 * Human-readable output of `mailroom run`: progress lines (each message that reaches the lead) and
 * the closing report (who did what, timings, shutdown, files to look at).
 */
import { describeText } from '../../core/describe.js';
import type { InboxEntry } from '../../protocol/inbox.js';
import { parseMessageText } from '../../protocol/structured.js';
import type { RunReport, TaskReport } from '../../runtime/run/report.js';

/** Seconds with two decimals, e.g. `+1.25s`. */
export function offset(ms: number): string {
  return `+${(ms / 1000).toFixed(2)}s`;
}

/** One progress line, or undefined for idle notifications unless `verbose`. */
export function progressLine(entry: InboxEntry, atMs: number, verbose: boolean): string | undefined {
  const parsed = parseMessageText(entry.text);
  if (!verbose && parsed.kind === 'structured' && parsed.message.type === 'idle_notification') return undefined;
  return `  ${offset(atMs).padStart(8)}  ${entry.from} → lead: ${describeText(parsed)}`;
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
    ...r.members.map((m) => `  ${m.name} (${m.model}): ${m.completed.length ? `completed ${m.completed.map((id) => `#${id}`).join(', ')}` : 'completed nothing'}${m.failed.length ? `, failed ${m.failed.map((id) => `#${id}`).join(', ')}` : ''} — ${m.busyMs} ms running commands`),
    '',
    `Shutdown: ${r.shutdown.map((s) => `${s.name} ${s.outcome}`).join(', ') || '(no teammates)'}`,
    `${r.complete ? 'Done' : r.timedOut ? 'Timed out' : r.interrupted ? 'Interrupted' : 'Stopped'} in ${(r.durationMs / 1000).toFixed(2)}s: ${done}/${r.tasks.length} tasks completed. Team "${r.team}" is in ${r.root}.`,
    ...(r.outputs.length ? ['', 'Files to look at:', ...r.outputs.map((o) => `  cat ${o}`)] : []),
  ];
}

function taskRow(t: TaskReport, width: number): string {
  const exit = t.exitCode === undefined ? '' : `exit ${t.exitCode}`;
  const when = t.startMs === undefined ? '' : `${offset(t.startMs)} for ${t.durationMs ?? 0} ms`;
  const tail = t.lastOutput ? `  (${t.lastOutput})` : '';
  return `  #${t.id.padEnd(3)} ${t.subject.padEnd(width)}  ${(t.owner ?? '-').padEnd(10)} ${t.status.padEnd(11)} ${exit.padEnd(7)} ${when}${tail}`;
}
