/**
 * task_create, task_update and task_claim, acting as this server's member (owner on start, assigner
 * of task_assignment messages, claimant).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { MailroomError } from '../../errors.js';
import { claimNextTask, claimTask } from '../../core/task-claim.js';
import { updateTask } from '../../core/task-update.js';
import { addTask } from '../../core/tasks.js';
import { handler } from '../result.js';
import type { McpSession } from '../session.js';
import { metadata, status, taskId, taskIds } from './task-args.js';

const text = (what: string) => z.string().optional().describe(what);

/** Registers task_create, task_update and task_claim. */
export function registerTaskWriteTools(server: McpServer, session: McpSession): void {
  const { log } = session;
  const as = session.me;
  server.registerTool(
    'task_create',
    {
      description: 'Add a task to the board (status pending). An owner other than you gets a task_assignment message.',
      inputSchema: {
        subject: z.string().min(1).describe('Short imperative title'),
        description: text('Details'),
        active_form: text('Present-continuous form shown while in progress, e.g. "Writing tests"'),
        blocked_by: taskIds.optional().describe('Ids that must complete first'),
        owner: text('Member to own it'),
        metadata: metadata.optional(),
      },
    },
    handler(log, 'task_create', async (a: CreateArgs) => {
      const task = await addTask({ ...session.target, as, subject: a.subject, description: a.description, activeForm: a.active_form, blockedBy: a.blocked_by, owner: a.owner, metadata: a.metadata });
      return { task };
    }),
  );
  server.registerTool(
    'task_update',
    {
      description:
        'Change a task: status (in_progress makes you the owner of an unowned task; completed is refused while a blocker is open; ' +
        'deleted removes it), owner (null clears it), texts, dependencies (added on both tasks), metadata (null deletes a key).',
      inputSchema: {
        id: taskId,
        status: z.union([status, z.literal('deleted')]).optional(),
        owner: z.string().nullable().optional().describe('New owner, or null to clear'),
        subject: text('New title'),
        description: text('New details'),
        active_form: text('New present-continuous form'),
        add_blocks: taskIds.optional().describe('Ids this task blocks'),
        add_blocked_by: taskIds.optional().describe('Ids that block this task'),
        metadata: metadata.optional(),
      },
    },
    handler(log, 'task_update', async (a: UpdateArgs) => {
      const result = await updateTask({
        ...session.target, as, id: a.id, status: a.status, owner: a.owner, subject: a.subject, description: a.description,
        activeForm: a.active_form, addBlocks: a.add_blocks, addBlockedBy: a.add_blocked_by, metadata: a.metadata,
      });
      return { ...result };
    }),
  );
  server.registerTool(
    'task_claim',
    {
      description:
        'Claim a task for yourself (owner = you, status in_progress). With an id: that task, or an error with reason already_claimed, ' +
        'already_resolved or blocked. Without: the lowest-id ready task. busy_check refuses (agent_busy) while you own an open task.',
      inputSchema: { id: taskId.optional().describe('Task id; omit for the next ready task'), busy_check: z.boolean().optional() },
    },
    handler(log, 'task_claim', async (a: { id?: string | undefined; busy_check?: boolean | undefined }) => {
      const options = { ...session.target, as, busyCheck: a.busy_check };
      const task = a.id !== undefined ? await claimTask({ ...options, id: a.id }) : await claimNextTask(options);
      if (!task) throw new MailroomError('NO_READY_TASK', 'No task is ready (pending, unowned, unblocked). Check task_list, or wait_for_message for news.', { details: { team: session.team } });
      return { task };
    }),
  );
}

interface CreateArgs {
  subject: string;
  description?: string | undefined;
  active_form?: string | undefined;
  blocked_by?: string[] | undefined;
  owner?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
}

interface UpdateArgs {
  id: string;
  status?: 'pending' | 'in_progress' | 'completed' | 'deleted' | undefined;
  owner?: string | null | undefined;
  subject?: string | undefined;
  description?: string | undefined;
  active_form?: string | undefined;
  add_blocks?: string[] | undefined;
  add_blocked_by?: string[] | undefined;
  metadata?: Record<string, unknown> | undefined;
}
