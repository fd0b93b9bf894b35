/**
 * Task board use cases: add, list, show, delete. Ids and files follow Claude Code 2.1.109 task
 * files (reference §5): next id = max(file ids, .highwatermark) + 1, never reused;
 * `blocks`/`blockedBy` kept symmetric on both tasks. Each change is one store transition.
 */
import { requireSameCall } from '../../domain/key-reused.js';
import { MailroomError } from '../../errors.js';
import { leadName, requireMember } from '../../domain/roster.js';
import { assertMetadataDepth, assertTaskId, indexTasks, isInternal, isReady, openBlockers, taskNotFound } from '../../domain/task-board.js';
import type { Task, TaskStatus } from '../../protocol/task.js';
import { isUnowned } from '../../protocol/task.js';
import { opOf, teamOf, type TeamOptions } from '../context.js';
import { notifyAssignment } from './assignment-message.js';
import { requireHooksPass } from '../teams/hooks.js';
import { assignmentActions, requirePermitted } from '../teams/policy.js';

/** Free-form metadata values; `null` deletes a key on update. */
export type MetadataPatch = Record<string, unknown>;

/** Input of {@link addTask}. */
export interface AddTaskOptions extends TeamOptions {
  subject: string;
  description?: string;
  activeForm?: string;
  /** Ids of tasks that must complete first. */
  blockedBy?: readonly string[];
  /** Initial owner (a member name); gets a task_assignment unless it is `as`. */
  owner?: string;
  metadata?: MetadataPatch;
  /** Who creates the task (default: the lead). */
  as?: string;
  /** Makes the creation safe to retry: a second call with the same key (within 24 h, also racing the first) returns the first task. */
  idempotencyKey?: string;
}

/**
 * Creates a task and links its blockers both ways (one store transition).
 * @returns the task as written.
 * @throws INVALID_ARGUMENT (empty subject), TASK_NOT_FOUND (unknown blocker), MEMBER_NOT_FOUND (owner, or `as` not a member),
 * NOT_PERMITTED (the team policy: createTasks, assignTasks, or the message rule for the owner's task_assignment),
 * KEY_REUSED (`idempotencyKey` was used for a task with another subject: src/domain/key-reused.ts)
 */
export async function addTask(options: AddTaskOptions): Promise<Task> {
  if (options.subject.trim() === '') throw new MailroomError('INVALID_ARGUMENT', 'Task subject is empty: give a short imperative title.');
  assertMetadataDepth(options.metadata);
  const store = teamOf(options);
  const config = await store.readConfig(options.team);
  if (options.as !== undefined) requireMember(config, options.as, 'member');
  if (options.owner) requireMember(config, options.owner, 'owner');
  const actor = options.as ?? leadName(config);
  // The policy binds the creator; its task_assignment is a message from it (checked before anything is written).
  await requirePermitted(options, actor, [{ rule: 'createTasks' }, ...assignmentActions(options.owner, actor)], config);
  // TaskCreated runs before the task exists (no task_id yet): a block creates nothing.
  await requireHooksPass(
    { ...options, event: 'TaskCreated', input: { task_subject: options.subject, task_description: options.description ?? '', teammate_name: actor } },
    `creating task "${options.subject}"`,
  );
  const { value } = await store.createTask(
    options.team,
    { subject: options.subject, description: options.description ?? '', activeForm: options.activeForm, owner: options.owner || undefined, blockedBy: options.blockedBy, metadata: options.metadata },
    { ...opOf(options, actor), idempotencyKey: options.idempotencyKey },
  );
  // A replay answers only the same task: another subject under the key is KEY_REUSED (nothing created).
  if (value.replayed && options.idempotencyKey !== undefined) requireSameCall(options.idempotencyKey, 'task add', { text: options.subject }, [{ text: value.task.subject }]);
  if (!value.replayed) await notifyAssignment(options, value.task, actor);
  return value.task;
}

/** A task with its computed board state. */
export interface TaskView {
  task: Task;
  /** Blockers that exist and are not completed (listings drop completed ones, as Claude Code). */
  openBlockers: string[];
  blocked: boolean;
  ready: boolean;
}

/** Input of {@link listTasks}. */
export interface ListTasksOptions extends TeamOptions {
  status?: TaskStatus;
  owner?: string;
  /** Only ready tasks (pending, unowned, unblocked). */
  ready?: boolean;
  /** Include `metadata._internal` tasks (hidden by default). */
  includeInternal?: boolean;
}

/** Tasks in numeric id order with their board state, filtered. @throws TEAM_NOT_FOUND */
export async function listTasks(options: ListTasksOptions): Promise<TaskView[]> {
  const store = teamOf(options);
  await store.readConfig(options.team); // TEAM_NOT_FOUND rather than an empty board for a mistyped team
  const tasks = await store.listTasks(options.team);
  const byId = indexTasks(tasks);
  return tasks
    .filter((t) => options.includeInternal || !isInternal(t))
    .map((task) => viewOf(task, byId))
    .filter((v) => options.status === undefined || v.task.status === options.status)
    .filter((v) => options.owner === undefined || v.task.owner === options.owner || (options.owner === '' && isUnowned(v.task)))
    .filter((v) => !options.ready || v.ready);
}

/** Builds the {@link TaskView} of one task. */
export function viewOf(task: Task, byId: ReadonlyMap<string, Task>): TaskView {
  const open = openBlockers(task, byId);
  return { task, openBlockers: open, blocked: open.length > 0, ready: isReady(task, byId) };
}

/** One task with its board state. @throws INVALID_ARGUMENT (malformed id), TASK_NOT_FOUND, FILE_CORRUPT (the file exists but is not a valid task) */
export async function getTask(options: TeamOptions & { id: string }): Promise<TaskView> {
  assertTaskId(options.id);
  const store = teamOf(options);
  const task = await store.readTask(options.team, options.id, { strict: true });
  if (!task) throw taskNotFound(options.team, options.id);
  return viewOf(task, indexTasks(await store.listTasks(options.team)));
}

/**
 * Deletes a task: its id is never reused, and it is stripped from every other task's
 * `blocks`/`blockedBy`. `as`: who deletes it (default: the lead), bound by the policy's deleteTasks.
 * @throws INVALID_ARGUMENT (malformed id), TASK_NOT_FOUND, NOT_PERMITTED
 */
export async function deleteTask(options: TeamOptions & { id: string; as?: string | undefined }): Promise<Task> {
  assertTaskId(options.id);
  await requirePermitted(options, options.as, [{ rule: 'deleteTasks', id: options.id }]);
  return (await teamOf(options).deleteTask(options.team, options.id, opOf(options, options.as))).value;
}
