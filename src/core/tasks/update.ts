/**
 * Updating a task (reference §5 "Update"): dependency removals and additions written to both tasks
 * (one store transition each, an addition refused whole on a cycle), then the fields (another:
 * shallow changes, per-key metadata merge, TASK_BLOCKED while a blocker is open, the actor as
 * owner when an unowned task starts), and a task_assignment to a new owner.
 */
import { leadName, requireMember } from '../../domain/roster.js';
import { assertMetadataDepth, assertTaskId, taskNotFound } from '../../domain/task-board.js';
import type { Task, TaskStatus } from '../../protocol/task.js';
import { isUnowned } from '../../protocol/task.js';
import type { TaskPatch } from '../../store/team-store.js';
import { opOf, teamOf, type TeamOptions } from '../context.js';
import { notifyAssignment } from './assignment-message.js';
import { deleteTask, type MetadataPatch } from './board.js';
import { requireHooksPass } from '../teams/hooks.js';

export { mergeMetadata } from '../../domain/task-patch.js';

/** Input of {@link updateTask}. `owner: null` (or `""`) clears the owner. */
export interface UpdateTaskOptions extends TeamOptions {
  id: string;
  status?: TaskStatus | 'deleted';
  owner?: string | null;
  subject?: string;
  description?: string;
  activeForm?: string;
  /** Ids this task blocks (each gains this id in `blockedBy`). */
  addBlocks?: readonly string[];
  /** Ids that block this task (each gains this id in `blocks`). */
  addBlockedBy?: readonly string[];
  /** Ids this task no longer blocks (removed from its `blocks` and from their `blockedBy`). */
  removeBlocks?: readonly string[];
  /** Ids that no longer block this task (removed from its `blockedBy` and from their `blocks`). */
  removeBlockedBy?: readonly string[];
  metadata?: MetadataPatch;
  /** Who makes the change (default: the lead); becomes the owner when an unowned task starts. */
  as?: string;
}

/** Result of {@link updateTask}: the task after the change (or as it was when deleted). */
export interface UpdateTaskResult {
  task: Task;
  deleted: boolean;
  /** True when a task_assignment was sent to a new owner. */
  notified: boolean;
}

/**
 * Applies the changes. Dependencies are removed first, then added (refused on unknown ids or
 * cycles, nothing changed then), then the fields. Removing a dependency the task does not have
 * changes nothing; an id with no task file (a dangling reference) can be removed.
 * @throws INVALID_ARGUMENT (malformed id, metadata too deep), TASK_NOT_FOUND, TASK_CYCLE, TASK_BLOCKED, MEMBER_NOT_FOUND
 */
export async function updateTask(options: UpdateTaskOptions): Promise<UpdateTaskResult> {
  const store = teamOf(options);
  assertTaskId(options.id);
  if (options.status === 'deleted') return { task: await deleteTask(options), deleted: true, notified: false };
  assertMetadataDepth(options.metadata);
  const config = await store.readConfig(options.team);
  const actor = options.as ?? leadName(config);
  if (options.as !== undefined) requireMember(config, options.as, 'member');
  if (options.owner) requireMember(config, options.owner, 'owner');
  if (options.status === 'completed') await completionHooks(options, actor);
  const op = opOf(options, actor);
  const removed = [...(options.removeBlockedBy ?? []).map((b) => ({ blocked: options.id, blocker: b })), ...(options.removeBlocks ?? []).map((b) => ({ blocked: b, blocker: options.id }))];
  if (removed.length > 0) {
    if (!(await store.readTask(options.team, options.id, { strict: true }))) throw taskNotFound(options.team, options.id);
    await store.unlinkTasks(options.team, removed, op);
  }
  const edges = [...(options.addBlockedBy ?? []).map((b) => ({ blocked: options.id, blocker: b })), ...(options.addBlocks ?? []).map((b) => ({ blocked: b, blocker: options.id }))];
  if (edges.length > 0) await store.linkTasks(options.team, edges, op);
  const patch: TaskPatch = { subject: options.subject, description: options.description, activeForm: options.activeForm, owner: options.owner, status: options.status, metadata: options.metadata };
  const { value } = await store.patchTask(options.team, options.id, patch, op);
  const ownerChanged = !isUnowned(value.task) && value.task.owner !== value.previous.owner;
  const notified = ownerChanged ? await notifyAssignment(options, value.task, actor) : false;
  return { task: value.task, deleted: false, notified };
}

/**
 * Runs the TaskCompleted hooks (Claude Code's input: task_id, task_subject, task_description,
 * teammate_name) when the task is not completed yet. @throws NOT_PERMITTED (rule `hook:TaskCompleted`)
 * when a hook blocks: the task stays as it is.
 */
async function completionHooks(options: UpdateTaskOptions, actor: string): Promise<void> {
  const task = await teamOf(options).readTask(options.team, options.id, { strict: true });
  if (!task || task.status === 'completed') return;
  await requireHooksPass(
    { ...options, event: 'TaskCompleted', input: { task_id: task.id, task_subject: task.subject, task_description: task.description, teammate_name: actor } },
    `completing task #${task.id}`,
  );
}
