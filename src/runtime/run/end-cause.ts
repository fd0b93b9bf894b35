/**
 * Why a `mailroom run` ended, in the report: `endReason` and, when tasks remain open, a `cause`
 * sentence naming each open task's state before the shutdown (who held it, a failed command, what
 * blocks it) — so RUN_INCOMPLETE says what happened and points only at things that exist.
 */
import type { Task } from '../../protocol/task.js';
import type { TaskReport } from './report.js';

/**
 * How a run ended: `complete` (every task completed), `quiet` (every teammate idle with no unread
 * mail and no task any of them can take, tasks still open), `models-failing` (every teammate's model
 * call failed N times in a row), `timeout` (the run timeout), `interrupted` (SIGINT/SIGTERM).
 */
export type EndReason = 'complete' | 'quiet' | 'models-failing' | 'timeout' | 'interrupted';

/** The end of a run for the report. */
export interface RunEnd {
  endReason: EndReason;
  /** One sentence: why the open tasks stayed open (absent when the run is complete). */
  cause?: string;
}

/** Input of {@link endOf}. */
export interface EndInput {
  complete: boolean;
  timedOut: boolean;
  interrupted: boolean;
  /** Set when every member's model kept failing (see stall.ts). */
  stallReason?: string;
  /** The tasks as reported (final state). */
  tasks: readonly TaskReport[];
  /** The board before the shutdown. */
  before: readonly Task[];
}

/** The reason and cause of a run's end. */
export function endOf(i: EndInput): RunEnd {
  if (i.complete) return { endReason: 'complete' };
  const open = openTasks(i.tasks, i.before);
  if (i.interrupted) return { endReason: 'interrupted', cause: `interrupted; ${open}` };
  if (i.stallReason !== undefined) return { endReason: 'models-failing', cause: `${i.stallReason}; ${open}` };
  if (i.timedOut) return { endReason: 'timeout', cause: `the run timeout ended it; ${open}` };
  return { endReason: 'quiet', cause: `every member went idle with no mail left and no task any of them could take; ${open}` };
}

/** "open: #1 in_progress with bob (its command failed: exit 1), #2 pending, blocked by #1". */
function openTasks(tasks: readonly TaskReport[], before: readonly Task[]): string {
  const was = new Map(before.map((t) => [t.id, t]));
  const parts = tasks.filter((t) => t.status !== 'completed').map((t) => describe(t, was.get(t.id), was));
  return `open: ${parts.join(', ')}`;
}

function describe(t: TaskReport, was: Task | undefined, board: ReadonlyMap<string, Task>): string {
  const status = was?.status ?? t.status;
  const owner = was?.owner || t.owner;
  let text = `#${t.id} ${status}${owner ? ` with ${owner}` : ''}`;
  if (t.exitCode !== undefined && t.exitCode !== 0) text += ` (its command failed: exit ${t.exitCode})`;
  else if (status === 'pending') {
    const blockers = (was?.blockedBy ?? []).filter((id) => board.get(id)?.status !== 'completed');
    text += blockers.length > 0 ? `, blocked by ${blockers.map((id) => `#${id}`).join(', ')}` : owner ? '' : ', never claimed';
  }
  return text;
}
