/**
 * TaskClaim: take a task (Claude Code has no claim tool; its teammates set `owner` with
 * TaskUpdate). Without an id it takes a pending, unblocked task already assigned to the caller,
 * else the lowest-id ready task, under the task-list lock (no task goes to two claimants).
 */
import { z } from 'zod';
import { claimNextTask, claimTask } from '../../core/task-claim.js';
import { listTasks } from '../../core/tasks.js';
import { defineTool, type ToolContext } from './types.js';

/** TaskClaim. */
export const taskClaimTool = defineTool(
  'TaskClaim',
  'Claim a task: become its owner and set it in_progress. Without taskId: your own assigned task if one is ready, else the lowest-id ready task. Returns {"claimed": task} or {"claimed": null}.',
  z.object({ taskId: z.string().optional().describe('A specific task id; omit to take the next ready one') }),
  async (input, ctx) => ({ claimed: (await claim(input.taskId, ctx)) ?? null }),
);

async function claim(id: string | undefined, ctx: ToolContext) {
  const base = { root: ctx.store, team: ctx.team, as: ctx.name };
  if (id !== undefined) return claimTask({ ...base, id });
  const mine = await listTasks({ ...base, owner: ctx.name, status: 'pending' });
  const assigned = mine.find((v) => !v.blocked);
  if (assigned) return claimTask({ ...base, id: assigned.task.id });
  return claimNextTask(base);
}
