/**
 * Task board use cases: add, list, show, delete. Ids and files follow Claude Code 2.1.109 task
 * files (reference §5): next id = max(file ids, .highwatermark) + 1 under the list lock, never
 * reused; `blocks`/`blockedBy` kept symmetric on both tasks.
 */
import { MailroomError } from '../errors.js';
import type { Task, TaskStatus } from '../protocol/task.js';
import { isUnowned } from '../protocol/task.js';
import type { Store } from '../store/store.js';
import { storeOf, type TeamOptions } from './context.js';
import { leadName, requireMember } from './members.js';
import { notifyAssignment } from './task-assign.js';
import { addUnique, assertMetadataDepth, assertTaskId, indexTasks, isInternal, isReady, openBlockers } from './task-rules.js';
import { recordTasks } from './journal.js';

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
}

/**
 * Creates a task under the list lock and links its blockers both ways.
 * @returns the task as written.
 * @throws INVALID_ARGUMENT (empty subject), TASK_NOT_FOUND (unknown blocker), MEMBER_NOT_FOUND (owner, or `as` not a member)
 */
export async function addTask(options: AddTaskOptions): Promise<Task> {
  if (options.subject.trim() === '') throw new MailroomError('INVALID_ARGUMENT', 'Task subject is empty: give a short imperative title.');
  assertMetadataDepth(options.metadata);
  const store = storeOf(options.root);
  const config = await store.readConfig(options.team);
  if (options.as !== undefined) requireMember(config, options.as, 'member');
  if (options.owner) requireMember(config, options.owner, 'owner');
  const task = await store.withTaskList(options.team, async (list) => {
    const blockers = [...new Set(options.blockedBy ?? [])];
    await requireTasks(store, options.team, blockers);
    const created = newTask(await list.nextId(), options, blockers);
    await list.writeNew(created);
    for (const b of blockers) await store.updateTask(options.team, b, (t) => addUnique(t.blocks, created.id));
    return created;
  });
  await recordTasks({ ...options, root: store }, 'created', [task]);
  await notifyAssignment(options, task, options.as ?? leadName(config));
  return task;
}

function newTask(id: string, o: AddTaskOptions, blockedBy: string[]): Task {
  const task: Record<string, unknown> = { id, subject: o.subject, description: o.description ?? '' };
  if (o.activeForm !== undefined) task.activeForm = o.activeForm;
  if (o.owner) task.owner = o.owner;
  task.status = 'pending';
  task.blocks = [];
  task.blockedBy = blockedBy;
  const metadata = Object.entries(o.metadata ?? {}).filter(([, v]) => v !== null);
  if (metadata.length > 0) task.metadata = Object.fromEntries(metadata);
  return task as Task;
}

/** Throws TASK_NOT_FOUND naming the first id that has no task (FILE_CORRUPT when its file is not a valid task). */
export async function requireTasks(store: Store, team: string, ids: readonly string[]): Promise<Task[]> {
  const tasks: Task[] = [];
  for (const id of ids) {
    const task = await store.readTask(team, id, { strict: true });
    if (!task) throw new MailroomError('TASK_NOT_FOUND', `Task #${id} not found in team "${team}": a dependency must name an existing task.`, { details: { team, id } });
    tasks.push(task);
  }
  return tasks;
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
  const store = storeOf(options.root);
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
  const store = storeOf(options.root);
  const task = await store.readTask(options.team, options.id, { strict: true });
  const byId = indexTasks(task ? await store.listTasks(options.team) : []);
  if (!task) throw new MailroomError('TASK_NOT_FOUND', `Task #${options.id} not found in team "${options.team}". List tasks with \`mailroom task list\`.`, { details: { team: options.team, id: options.id } });
  return viewOf(task, byId);
}

/**
 * Deletes a task: raises `.highwatermark`, removes the file, strips the id from every other
 * task's `blocks`/`blockedBy`. @throws INVALID_ARGUMENT (malformed id), TASK_NOT_FOUND
 */
export async function deleteTask(options: TeamOptions & { id: string }): Promise<Task> {
  assertTaskId(options.id);
  const store = storeOf(options.root);
  const deleted = await store.withTaskList(options.team, async (list) => {
    const task = await store.readTask(options.team, options.id, { strict: true });
    if (!task) throw new MailroomError('TASK_NOT_FOUND', `Task #${options.id} not found in team "${options.team}". List tasks with \`mailroom task list\`.`, { details: { team: options.team, id: options.id } });
    await list.delete(options.id);
    for (const other of await store.listTasks(options.team)) {
      if (!other.blocks.includes(options.id) && !other.blockedBy.includes(options.id)) continue;
      await store.updateTask(options.team, other.id, (t) => {
        t.blocks = t.blocks.filter((id) => id !== options.id);
        t.blockedBy = t.blockedBy.filter((id) => id !== options.id);
      });
    }
    return task;
  });
  await recordTasks({ ...options, root: store }, 'deleted', [deleted]);
  return deleted;
}
