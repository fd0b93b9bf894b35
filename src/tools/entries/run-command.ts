/**
 * run_task_command / RunTaskCommand (runtime only): runs a claimed task's `metadata.command` (a
 * shell command, in the caller's working directory, with `metadata.timeoutMs` or a default
 * timeout) and stores the outcome in the task's metadata: `exitCode`, `outputTail`, `durationMs`,
 * `startedAt`, `finishedAt`, `timedOut`. It does not complete the task: the caller decides (the
 * worker completes on exit code 0). The surface's command runner records the running command in
 * the store, so an orphan of a killed runtime can be reaped.
 */
import { z } from 'zod';
import { MailroomError } from '../../errors.js';
import { getTask } from '../../core/tasks/board.js';
import { updateTask } from '../../core/tasks/update.js';
import type { Task } from '../../protocol/task.js';
import { taskId } from '../args.js';
import { defineTool, serviceOf, type ToolCallContext } from '../entry.js';
import type { CommandResult } from '../types.js';
import { commandApprovalRule } from '../approval-rule.js';

/** Default command timeout (ms) when the task sets no `metadata.timeoutMs`. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 120_000;
/** Characters of output kept in `metadata.outputTail`. */
export const OUTPUT_TAIL_CHARS = 2_000;

/** run_task_command / RunTaskCommand. */
export const runTaskCommandTool = defineTool({
  id: 'run_task_command',
  names: { runtime: 'RunTaskCommand' },
  description: (d) =>
    `Run the shell command in a task's metadata.command (you must own the task: ${d.tool('task_claim') ?? 'claim it'} first). ` +
    'Records exitCode and outputTail in the task\'s metadata and returns them.',
  input: z.object({ taskId }),
  requires: ['commands'],
  rules: [commandApprovalRule],
  async run({ taskId: id }, ctx) {
    const task = (await getTask({ ...ctx.target, id })).task;
    const command = commandOf(task, ctx);
    const startedAt = new Date().toISOString();
    const result = await serviceOf(ctx, 'commands').run({ taskId: task.id, command, cwd: ctx.cwd, env: envOf(task, ctx), timeoutMs: timeoutOf(task), signal: ctx.signal });
    if (result.aborted) throw ctx.signal.reason ?? new Error('aborted');
    const outcome = outcomeOf(result, startedAt);
    // Metadata only, no actor: the outcome is recorded even if a forced stop removed the member meanwhile.
    await updateTask({ ...ctx.target, id: task.id, metadata: outcome });
    if (outcome.exitCode !== 0) ctx.record.finishedTask = { id: task.id, status: 'failed', failureReason: failureOf(result) };
    return { taskId: task.id, subject: task.subject, ...outcome };
  },
});

function commandOf(task: Task, ctx: ToolCallContext): string {
  const command = task.metadata?.command;
  if (typeof command !== 'string' || command.trim() === '') {
    throw new MailroomError('INVALID_ARGUMENT', `Task #${task.id} has no metadata.command to run.`);
  }
  if (task.owner !== ctx.member) {
    throw new MailroomError('INVALID_ARGUMENT', `Task #${task.id} is owned by ${task.owner ?? 'nobody'}, not you: claim it with ${ctx.call.surface === 'runtime' ? 'TaskClaim' : 'task_claim'} first.`);
  }
  return command;
}

function timeoutOf(task: Task): number {
  const t = task.metadata?.timeoutMs;
  return typeof t === 'number' && t > 0 ? t : DEFAULT_COMMAND_TIMEOUT_MS;
}

function envOf(task: Task, ctx: ToolCallContext): Record<string, string> {
  const extra = task.metadata?.env;
  const env: Record<string, string> = { MAILROOM_TEAM: ctx.target.team, MAILROOM_AGENT: ctx.member, MAILROOM_TASK_ID: task.id };
  if (typeof extra === 'object' && extra !== null) {
    for (const [k, v] of Object.entries(extra)) if (typeof v === 'string') env[k] = v;
  }
  return env;
}

function outcomeOf(r: CommandResult, startedAt: string) {
  const output = r.stderr ? `${r.stdout}${r.stdout.endsWith('\n') || r.stdout === '' ? '' : '\n'}[stderr]\n${r.stderr}` : r.stdout;
  return {
    exitCode: r.exitCode ?? -1,
    outputTail: tail(r.spawnError ? `could not start: ${r.spawnError}` : output, OUTPUT_TAIL_CHARS),
    durationMs: r.durationMs,
    startedAt,
    finishedAt: new Date().toISOString(),
    timedOut: r.timedOut,
  };
}

function tail(text: string, max: number): string {
  return text.length > max ? text.slice(text.length - max) : text;
}

function failureOf(r: CommandResult): string {
  if (r.spawnError) return `could not start: ${r.spawnError}`;
  if (r.timedOut) return `timed out after ${r.durationMs} ms`;
  return `exit code ${r.exitCode ?? 'none (killed)'}`;
}
