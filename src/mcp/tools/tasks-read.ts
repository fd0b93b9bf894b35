/**
 * task_list and task_get: the task board with each task's computed state (open blockers, ready).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { getTask, listTasks } from '../../core/tasks.js';
import type { TaskStatus } from '../../protocol/task.js';
import { handler } from '../result.js';
import type { McpSession } from '../session.js';
import { status, taskId } from './task-args.js';

/** Registers task_list and task_get. */
export function registerTaskReadTools(server: McpServer, session: McpSession): void {
  const { log } = session;
  server.registerTool(
    'task_list',
    {
      description:
        'List tasks in id order with status, owner, open blockers and whether each is ready (pending, unowned, unblocked). ' +
        'Take the lowest ready id first.',
      inputSchema: {
        status: status.optional().describe('Only tasks with this status'),
        owner: z.string().optional().describe('Only tasks owned by this member ("" = unowned)'),
        ready: z.boolean().optional().describe('Only ready tasks'),
        mine: z.boolean().optional().describe('Only tasks you own'),
      },
      annotations: { readOnlyHint: true },
    },
    handler(log, 'task_list', async (a: { status?: TaskStatus | undefined; owner?: string | undefined; ready?: boolean | undefined; mine?: boolean | undefined }) => {
      const owner = a.mine ? session.me : a.owner;
      const tasks = await listTasks({ ...session.target, status: a.status, owner, ready: a.ready });
      return { tasks };
    }),
  );
  server.registerTool(
    'task_get',
    {
      description: 'Show one task with its full description, dependencies and state.',
      inputSchema: { id: taskId.describe('Task id') },
      annotations: { readOnlyHint: true },
    },
    handler(log, 'task_get', async (a: { id: string }) => ({ ...(await getTask({ ...session.target, id: a.id })) })),
  );
}
