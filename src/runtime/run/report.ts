/**
 * The result of `mailroom run`: each task in its final state (after the shutdown, as `mailroom task
 * show` has it) with what the shutdown changed, its exit code and timings (from the metadata
 * RunTaskCommand recorded), per-member totals, the shutdown outcomes, and the output files to look at.
 */
import type { Task } from '../../protocol/task.js';
import type { HostStopResult } from '../host.js';
import type { TurnFailures } from './turn-failures.js';
import type { EndReason } from './end-cause.js';

/** One task in the report. Times are ms since the run started. */
export interface TaskReport {
  id: string;
  subject: string;
  /** Final status, after the shutdown. */
  status: Task['status'];
  /** Final owner, after the shutdown. */
  owner?: string;
  /**
   * Status and owner before the shutdown, present only when the shutdown changed them: a member
   * that leaves puts its open tasks back to `pending` with no owner (docs/runtime.md "Shutdown").
   */
  beforeShutdown?: { status: Task['status']; owner?: string };
  exitCode?: number;
  startMs?: number;
  durationMs?: number;
  /** Last line of the command's output (failures only). */
  lastOutput?: string;
}

/** What each member did. */
export interface MemberReport {
  name: string;
  model: string;
  completed: string[];
  failed: string[];
  /** Total command time (ms). */
  busyMs: number;
  /** Turns whose model call failed (from the member's `idle_notification`s with `idleReason: "failed"`). */
  failedTurns: number;
  /** The reason of the last failed turn. */
  lastFailure?: string;
}

/** The whole report. */
export interface RunReport {
  team: string;
  /** Where the store is, for humans (its root directory for the filesystem store). */
  root: string;
  workdir: string;
  durationMs: number;
  /** True when every task completed. */
  complete: boolean;
  /** True when the run timeout ended the run before the team was done. */
  timedOut: boolean;
  /** True when the run was interrupted (SIGINT/SIGTERM, {@link RunTeamOptions.signal}) before the team was done. */
  interrupted: boolean;
  /** How the run ended (see {@link EndReason}): `models-failing` when every member's model call failed N times in a row. */
  endReason: EndReason;
  /** Why tasks stayed open, one sentence naming each (absent when complete). */
  cause?: string;
  tasks: TaskReport[];
  members: MemberReport[];
  shutdown: HostStopResult[];
  /** Absolute paths of the files the tasks declared as outputs that this run wrote (new or changed). */
  outputs: string[];
  /** Declared outputs that exist but this run did not change (left by an earlier run in the work directory). */
  olderOutputs: string[];
}

/**
 * Builds the task and member parts of the report from the board before the shutdown (`before`, for
 * who worked on what) and after it (`after`, the final state).
 */
export function summarise(before: readonly Task[], after: readonly Task[], members: ReadonlyArray<{ name: string; model: string }>, startedAt: number, failures: TurnFailures) {
  const was = new Map(before.map((t) => [t.id, t]));
  const taskReports = after.map((t) => taskReport(t, was.get(t.id), startedAt));
  const worker = (t: TaskReport) => t.beforeShutdown?.owner ?? t.owner;
  const memberReports = members.map((m) => ({
    name: m.name,
    model: m.model,
    completed: taskReports.filter((t) => worker(t) === m.name && t.status === 'completed').map((t) => t.id),
    failed: taskReports.filter((t) => worker(t) === m.name && t.exitCode !== undefined && t.exitCode !== 0).map((t) => t.id),
    busyMs: taskReports.filter((t) => worker(t) === m.name).reduce((sum, t) => sum + (t.durationMs ?? 0), 0),
    ...failures.of(m.name),
  }));
  return { tasks: taskReports, members: memberReports, complete: after.every((t) => t.status === 'completed') };
}

function taskReport(t: Task, was: Task | undefined, startedAt: number): TaskReport {
  const m = t.metadata ?? {};
  const r: TaskReport = { id: t.id, subject: t.subject, status: t.status };
  if (t.owner) r.owner = t.owner;
  if (was && (was.status !== t.status || (was.owner || undefined) !== (t.owner || undefined))) r.beforeShutdown = was.owner ? { status: was.status, owner: was.owner } : { status: was.status };
  if (typeof m.exitCode === 'number') r.exitCode = m.exitCode;
  if (typeof m.startedAt === 'string') r.startMs = Date.parse(m.startedAt) - startedAt;
  if (typeof m.durationMs === 'number') r.durationMs = m.durationMs;
  if (r.exitCode !== undefined && r.exitCode !== 0 && typeof m.outputTail === 'string') r.lastOutput = m.outputTail.trim().split('\n').pop();
  return r;
}
