/**
 * The task-board tools, named and shaped as Claude Code's: TaskCreate, TaskGet, TaskList,
 * TaskUpdate (status, owner, addBlocks, addBlockedBy, metadata). They call the core use cases with
 * the teammate as the actor.
 */
import { z } from 'zod';
import { addTask, getTask, listTasks, type TaskView } from '../../core/tasks.js';
import { updateTask } from '../../core/task-update.js';
import { TASK_STATUSES } from '../../protocol/task.js';
import { defineTool } from './types.js';

const Metadata = z.record(z.string(), z.unknown()).describe('Free-form keys; null deletes a key');

/** TaskCreate. */
export const taskCreateTool = defineTool(
  'TaskCreate',
  'Create a task on the team board.',
  z.object({
    subject: z.string().describe('Short imperative title'),
    description: z.string().optional(),
    activeForm: z.string().optional().describe('Present-continuous form shown while in progress'),
    blockedBy: z.array(z.string()).optional().describe('Ids of tasks that must complete first'),
    metadata: Metadata.optional(),
  }),
  async (input, ctx) => addTask({ root: ctx.store, team: ctx.team, as: ctx.name, ...input }),
);

/** TaskGet. */
export const taskGetTool = defineTool('TaskGet', 'Read one task with its blockers.', z.object({ taskId: z.string() }), async (input, ctx) =>
  compact(await getTask({ root: ctx.store, team: ctx.team, id: input.taskId })),
);

/** TaskList. */
export const taskListTool = defineTool(
  'TaskList',
  'List the tasks of the team board in id order (optionally filtered).',
  z.object({ status: z.enum(TASK_STATUSES).optional(), owner: z.string().optional(), ready: z.boolean().optional().describe('Only pending, unowned, unblocked tasks') }),
  async (input, ctx) => (await listTasks({ root: ctx.store, team: ctx.team, ...input })).map(compact),
);

/** TaskUpdate. */
export const taskUpdateTool = defineTool(
  'TaskUpdate',
  'Change a task: status (pending, in_progress, completed, deleted), owner, subject, description, dependencies, metadata.',
  z.object({
    taskId: z.string(),
    status: z.enum([...TASK_STATUSES, 'deleted']).optional(),
    owner: z.string().nullable().optional().describe('Member name; null or "" clears it'),
    subject: z.string().optional(),
    description: z.string().optional(),
    activeForm: z.string().optional(),
    addBlocks: z.array(z.string()).optional(),
    addBlockedBy: z.array(z.string()).optional(),
    metadata: Metadata.optional(),
  }),
  async ({ taskId, ...changes }, ctx) => {
    const result = await updateTask({ root: ctx.store, team: ctx.team, as: ctx.name, id: taskId, ...changes });
    if (changes.status === 'completed') ctx.record.finishedTask = { id: taskId, status: 'resolved' };
    return result;
  },
);

/** A task view without noise, for tool results. */
export function compact(view: TaskView): Record<string, unknown> {
  return { ...view.task, openBlockers: view.openBlockers, ready: view.ready };
}
