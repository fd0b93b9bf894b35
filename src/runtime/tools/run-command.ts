/**
 * RunTaskCommand: runs a claimed task's `metadata.command` (a shell command, in the teammate's
 * working directory, with `metadata.timeoutMs` or a default timeout) and stores the outcome in the
 * task's metadata: `exitCode`, `outputTail`, `durationMs`, `startedAt`, `finishedAt`, `timedOut`.
 * It does not complete the task: the caller decides (the worker completes on exit code 0). While
 * the command runs it is recorded in the store, so an orphan of a killed runtime can be reaped.
 */
import { z } from 'zod';
import { MailroomError } from '../../errors.js';
import { getTask } from '../../core/tasks.js';
import { updateTask } from '../../core/task-update.js';
import type { Task } from '../../protocol/task.js';
import { runRecordedShell } from '../recorded-shell.js';
import { capTail, type ShellResult } from '../shell.js';
import { defineTool, type ToolContext } from './types.js';

/** Default command timeout (ms) when the task sets no `metadata.timeoutMs`. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 120_000;
/** Characters of output kept in `metadata.outputTail`. */
export const OUTPUT_TAIL_CHARS = 2_000;

/** RunTaskCommand. */
export const runTaskCommandTool = defineTool(
  'RunTaskCommand',
  "Run the shell command in a task's metadata.command (you must own the task). Records exitCode and outputTail in the task's metadata and returns them.",
  z.object({ taskId: z.string() }),
  async ({ taskId }, ctx) => {
    const task = (await getTask({ root: ctx.store, team: ctx.team, id: taskId })).task;
    const command = commandOf(task, ctx);
    const startedAt = new Date().toISOString();
    const owner = { store: ctx.store, team: ctx.team, agent: ctx.name, taskId: task.id };
    const result = await runRecordedShell(owner, { command, cwd: ctx.cwd, env: envOf(task, ctx), timeoutMs: timeoutOf(task), signal: ctx.signal });
    if (result.aborted) throw ctx.signal.reason ?? new Error('aborted');
    const outcome = outcomeOf(task.id, result, startedAt);
    // Metadata only, no actor: the outcome is recorded even if a forced stop removed the member meanwhile.
    await updateTask({ root: ctx.store, team: ctx.team, id: task.id, metadata: outcome });
    if (outcome.exitCode !== 0) ctx.record.finishedTask = { id: task.id, status: 'failed', failureReason: failureOf(result) };
    return { taskId: task.id, subject: task.subject, ...outcome };
  },
);

function commandOf(task: Task, ctx: ToolContext): string {
  const command = task.metadata?.command;
  if (typeof command !== 'string' || command.trim() === '') {
    throw new MailroomError('INVALID_ARGUMENT', `Task #${task.id} has no metadata.command to run.`);
  }
  if (task.owner !== ctx.name) {
    throw new MailroomError('INVALID_ARGUMENT', `Task #${task.id} is owned by ${task.owner ?? 'nobody'}, not you: claim it with TaskClaim first.`);
  }
  return command;
}

function timeoutOf(task: Task): number {
  const t = task.metadata?.timeoutMs;
  return typeof t === 'number' && t > 0 ? t : DEFAULT_COMMAND_TIMEOUT_MS;
}

function envOf(task: Task, ctx: ToolContext): Record<string, string> {
  const extra = task.metadata?.env;
  const env: Record<string, string> = { MAILROOM_TEAM: ctx.team, MAILROOM_AGENT: ctx.name, MAILROOM_TASK_ID: task.id };
  if (typeof extra === 'object' && extra !== null) {
    for (const [k, v] of Object.entries(extra)) if (typeof v === 'string') env[k] = v;
  }
  return env;
}

function outcomeOf(id: string, r: ShellResult, startedAt: string) {
  const output = r.stderr ? `${r.stdout}${r.stdout.endsWith('\n') || r.stdout === '' ? '' : '\n'}[stderr]\n${r.stderr}` : r.stdout;
  return {
    exitCode: r.exitCode ?? -1,
    outputTail: capTail(r.spawnError ? `could not start: ${r.spawnError}` : output, OUTPUT_TAIL_CHARS),
    durationMs: r.durationMs,
    startedAt,
    finishedAt: new Date().toISOString(),
    timedOut: r.timedOut,
  };
}

function failureOf(r: ShellResult): string {
  if (r.spawnError) return `could not start: ${r.spawnError}`;
  if (r.timedOut) return `timed out after ${r.durationMs} ms`;
  return `exit code ${r.exitCode ?? 'none (killed)'}`;
}
