/**
 * The task board: task_list, task_get, task_create, task_update (the runtime's TaskList, TaskGet,
 * TaskCreate, TaskUpdate, named and shaped as Claude Code's). They call the core use cases with
 * the caller as the actor (creator, assigner of task_assignment messages, updater).
 */
import { z } from 'zod';
import { addTask, getTask, listTasks, type TaskView } from '../../core/tasks/board.js';
import { updateTask } from '../../core/tasks/update.js';
import { idempotencyKey, metadata, status, taskId, taskIds } from '../args.js';
import { defineTool } from '../entry.js';

/** A task view flattened for the runtime's tool results (fewer tokens): the task's fields plus its state. */
export function compact(view: TaskView): Record<string, unknown> {
  return { ...view.task, openBlockers: view.openBlockers, ready: view.ready };
}

const text = (what: string) => z.string().optional().describe(what);

/** task_list / TaskList. */
export const taskListTool = defineTool({
  id: 'task_list',
  names: { runtime: 'TaskList', mcp: 'task_list' },
  description:
    'List tasks in id order with status, owner, open blockers and whether each is ready (pending, unowned, unblocked). ' +
    'Take the lowest ready id first.',
  input: z.object({
    status: status.optional().describe('Only tasks with this status'),
    owner: z.string().optional().describe('Only tasks owned by this member ("" = unowned)'),
    ready: z.boolean().optional().describe('Only ready tasks'),
    mine: z.boolean().optional().describe('Only tasks you own'),
  }),
  hints: { readOnly: true },
  run: (input, ctx) => listTasks({ ...ctx.target, status: input.status, owner: input.mine ? ctx.member : input.owner, ready: input.ready }),
  views: { runtime: (tasks) => tasks.map(compact), mcp: (tasks) => ({ tasks }) },
});

/** task_get / TaskGet. */
export const taskGetTool = defineTool({
  id: 'task_get',
  names: { runtime: 'TaskGet', mcp: 'task_get' },
  description: 'Show one task with its full description, dependencies and state.',
  input: z.object({ taskId: taskId.describe('Task id') }),
  args: { mcp: { taskId: 'id' } },
  hints: { readOnly: true },
  run: (input, ctx) => getTask({ ...ctx.target, id: input.taskId }),
  views: { runtime: compact, mcp: (view) => ({ ...view }) },
});

/** task_create / TaskCreate. */
export const taskCreateTool = defineTool({
  id: 'task_create',
  names: { runtime: 'TaskCreate', mcp: 'task_create' },
  description: 'Add a task to the board (status pending). An owner other than you gets a task_assignment message.',
  input: z.object({
    subject: z.string().min(1).describe('Short imperative title'),
    description: text('Details'),
    activeForm: text('Present-continuous form shown while in progress, e.g. "Writing tests"'),
    blockedBy: taskIds.optional().describe('Ids of tasks that must complete first'),
    owner: text('Member to own it'),
    metadata: metadata.optional().describe('Free-form keys (a "command" is run by RunTaskCommand)'),
    idempotencyKey,
  }),
  run: ({ idempotencyKey: key, ...input }, ctx) => addTask({ ...ctx.target, as: ctx.member, ...input, ...(key !== undefined ? { idempotencyKey: key } : {}) }),
  views: { runtime: (task) => task, mcp: (task) => ({ task }) },
});

/** task_update / TaskUpdate. */
export const taskUpdateTool = defineTool({
  id: 'task_update',
  names: { runtime: 'TaskUpdate', mcp: 'task_update' },
  description:
    'Change a task: status (in_progress makes you the owner of an unowned task; completed is refused while a blocker is open; ' +
    'deleted removes it), owner (null or "" clears it), texts, dependencies (added on both tasks), metadata (null deletes a key).',
  input: z.object({
    taskId,
    status: z.union([status, z.literal('deleted')]).optional(),
    owner: z.string().nullable().optional().describe('New owner; null or "" clears it'),
    subject: text('New title'),
    description: text('New details'),
    activeForm: text('New present-continuous form'),
    addBlocks: taskIds.optional().describe('Ids this task blocks'),
    addBlockedBy: taskIds.optional().describe('Ids that block this task'),
    metadata: metadata.optional().describe('Keys to set; null deletes a key'),
  }),
  args: { mcp: { taskId: 'id' } },
  async run({ taskId: id, ...changes }, ctx) {
    const result = await updateTask({ ...ctx.target, as: ctx.member, id, ...changes });
    if (changes.status === 'completed') ctx.record.finishedTask = { id, status: 'resolved' };
    return { ...result };
  },
});
