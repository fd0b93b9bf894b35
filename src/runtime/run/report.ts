/**
 * The result of `mailroom run`: each task with who did it, its exit code and timings (from the
 * metadata RunTaskCommand recorded), per-member totals, the shutdown outcomes, and the output files
 * to look at.
 */
import { isAbsolute, join } from 'node:path';
import type { Task } from '../../protocol/task.js';
import type { HostStopResult } from '../host.js';
import type { TurnFailures } from './turn-failures.js';

/** One task in the report. Times are ms since the run started. */
export interface TaskReport {
  id: string;
  subject: string;
  status: Task['status'];
  owner?: string;
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
  root: string;
  workdir: string;
  durationMs: number;
  /** True when every task completed. */
  complete: boolean;
  /** True when the run timeout ended the run before the team was done. */
  timedOut: boolean;
  /** True when the run was interrupted (SIGINT/SIGTERM, {@link RunTeamOptions.signal}) before the team was done. */
  interrupted: boolean;
  tasks: TaskReport[];
  members: MemberReport[];
  shutdown: HostStopResult[];
  /** Absolute paths of the files the tasks declared as outputs. */
  outputs: string[];
}

/** Builds the task and member parts of the report from the board as it was before shutdown. */
export function summarise(tasks: readonly Task[], members: ReadonlyArray<{ name: string; model: string }>, startedAt: number, workdir: string, failures: TurnFailures) {
  const taskReports = tasks.map((t) => taskReport(t, startedAt));
  const memberReports = members.map((m) => ({
    name: m.name,
    model: m.model,
    completed: taskReports.filter((t) => t.owner === m.name && t.status === 'completed').map((t) => t.id),
    failed: taskReports.filter((t) => t.owner === m.name && t.exitCode !== undefined && t.exitCode !== 0).map((t) => t.id),
    busyMs: taskReports.filter((t) => t.owner === m.name).reduce((sum, t) => sum + (t.durationMs ?? 0), 0),
    ...failures.of(m.name),
  }));
  const outputs = tasks.flatMap((t) => (Array.isArray(t.metadata?.outputs) ? t.metadata.outputs : [])).filter((o): o is string => typeof o === 'string');
  return { tasks: taskReports, members: memberReports, outputs: outputs.map((o) => (isAbsolute(o) ? o : join(workdir, o))), complete: tasks.every((t) => t.status === 'completed') };
}

function taskReport(t: Task, startedAt: number): TaskReport {
  const m = t.metadata ?? {};
  const r: TaskReport = { id: t.id, subject: t.subject, status: t.status };
  if (t.owner) r.owner = t.owner;
  if (typeof m.exitCode === 'number') r.exitCode = m.exitCode;
  if (typeof m.startedAt === 'string') r.startMs = Date.parse(m.startedAt) - startedAt;
  if (typeof m.durationMs === 'number') r.durationMs = m.durationMs;
  if (r.exitCode !== undefined && r.exitCode !== 0 && typeof m.outputTail === 'string') r.lastOutput = m.outputTail.trim().split('\n').pop();
  return r;
}
