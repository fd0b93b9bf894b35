/**
 * task_claim / TaskClaim: take a task (Claude Code has no claim tool; its teammates set `owner`
 * with TaskUpdate). Without an id it takes a pending, unblocked task already assigned to the
 * caller, else the lowest-id ready task, under the task-list lock (no task goes to two claimants).
 */
import { z } from 'zod';
import { MailroomError } from '../../errors.js';
import { claimNextTask, claimTask, noReadyTaskError } from '../../core/tasks/claim.js';
import { listTasks } from '../../core/tasks/board.js';
import type { Task } from '../../protocol/task.js';
import { taskId } from '../args.js';
import { defineTool, type ToolCallContext } from '../entry.js';

/** task_claim / TaskClaim. */
export const taskClaimTool = defineTool({
  id: 'task_claim',
  names: { runtime: 'TaskClaim', mcp: 'task_claim' },
  description: (d) =>
    `Claim a task for yourself (owner = you, status in_progress). With ${d.arg('taskId')}: that task, or an error with reason ` +
    `already_claimed, already_resolved or blocked. Without: your own task left in progress by an earlier process of yours, else your own assigned task if one is ready, else the lowest-id ready task. ` +
    `${d.arg('busyCheck')} refuses (agent_busy) while you own another open task. ` +
    'Each claim gets a new fencingToken: your later writes about the task carry it, and are refused (TASK_FENCED) once you lost the task. ' +
    (d.surface === 'runtime' ? 'Returns {"claimed": task}, or {"claimed": null} when none is ready.' : 'Returns {task}; NO_READY_TASK when none is ready.'),
  input: z.object({
    taskId: taskId.optional().describe('Task id; omit for the next ready task'),
    busyCheck: z.boolean().optional().describe('Refuse while you own an open task'),
  }),
  args: { mcp: { taskId: 'id' } },
  run: async (input, ctx) => {
    const task = await claim(input.taskId, input.busyCheck, ctx);
    // MCP answers "none ready" with an error: the same one the CLI gives, naming tasks skipped for a missing capability.
    if (!task && ctx.call.surface === 'mcp') throw await noReadyTaskError({ ...ctx.target, as: ctx.member });
    if (task) ctx.claims?.hold(task.id, typeof task.fencingToken === 'number' ? task.fencingToken : undefined);
    return task;
  },
  views: {
    runtime: (task) => ({ claimed: task ?? null }),
    mcp: (task, _input, ctx) => {
      if (!task) throw new MailroomError('NO_READY_TASK', 'No task is ready (pending, unowned, unblocked). Check task_list, or wait_for_message for news.', { details: { team: ctx.target.team } });
      return { task };
    },
  },
});

async function claim(id: string | undefined, busyCheck: boolean | undefined, ctx: ToolCallContext): Promise<Task | undefined> {
  const base = { ...ctx.target, as: ctx.member, busyCheck };
  if (id !== undefined) return claimTask({ ...base, id });
  // Its own task first: one left in progress by an earlier process of this member (resumed), re-claimed for a new token.
  if (ctx.claims) {
    const left = (await listTasks({ ...ctx.target, owner: ctx.member, status: 'in_progress' })).find((v) => ctx.claims!.tokenOf(v.task.id) === undefined);
    if (left) return claimTask({ ...base, id: left.task.id });
  }
  // Then its own pending, unblocked task, chosen inside the store's claim transition.
  return claimNextTask({ ...base, preferAssigned: true });
}
