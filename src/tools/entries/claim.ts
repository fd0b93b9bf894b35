/**
 * task_claim / TaskClaim: take a task (Claude Code has no claim tool; its teammates set `owner`
 * with TaskUpdate). Without an id it takes a pending, unblocked task already assigned to the
 * caller, else the lowest-id ready task, under the task-list lock (no task goes to two claimants).
 */
import { z } from 'zod';
import { MailroomError } from '../../errors.js';
import { claimNextTask, claimTask } from '../../core/tasks/claim.js';
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
    `already_claimed, already_resolved or blocked. Without: your own assigned task if one is ready, else the lowest-id ready task. ` +
    `${d.arg('busyCheck')} refuses (agent_busy) while you own another open task. ` +
    (d.surface === 'runtime' ? 'Returns {"claimed": task}, or {"claimed": null} when none is ready.' : 'Returns {task}; NO_READY_TASK when none is ready.'),
  input: z.object({
    taskId: taskId.optional().describe('Task id; omit for the next ready task'),
    busyCheck: z.boolean().optional().describe('Refuse while you own an open task'),
  }),
  args: { mcp: { taskId: 'id' } },
  run: (input, ctx) => claim(input.taskId, input.busyCheck, ctx),
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
  const mine = await listTasks({ ...ctx.target, owner: ctx.member, status: 'pending' });
  const assigned = mine.find((v) => !v.blocked);
  if (assigned) return claimTask({ ...base, id: assigned.task.id });
  return claimNextTask(base);
}
