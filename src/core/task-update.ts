/**
 * Updating a task (reference §5 "Update"): shallow field changes, per-key metadata merge (`null`
 * deletes a key), dependency additions written to both tasks, TASK_BLOCKED while a blocker is
 * open, and a task_assignment to a new owner. Dependencies can also be removed, from both tasks.
 */
import { MailroomError } from '../errors.js';
import type { Task, TaskStatus } from '../protocol/task.js';
import { isUnowned } from '../protocol/task.js';
import type { Store } from '../store/store.js';
import { storeOf, type TeamOptions } from './context.js';
import { leadName, requireMember } from './members.js';
import { notifyAssignment } from './task-assign.js';
import { addUnique, assertMetadataDepth, assertTaskId, findCycle, indexTasks, openBlockers } from './task-rules.js';
import { deleteTask, requireTasks, type MetadataPatch } from './tasks.js';
import { recordTasks } from './journal.js';

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
 * Applies the changes. Dependencies are removed first, then added (each under the list lock;
 * additions refused on unknown ids or cycles), then the fields (under the task lock). Removing a
 * dependency the task does not have changes nothing; an id with no task file (a dangling
 * reference) can be removed.
 * @throws INVALID_ARGUMENT (malformed id, metadata too deep), TASK_NOT_FOUND, TASK_CYCLE, TASK_BLOCKED, MEMBER_NOT_FOUND
 */
export async function updateTask(options: UpdateTaskOptions): Promise<UpdateTaskResult> {
  const store = storeOf(options.root);
  assertTaskId(options.id);
  if (options.status === 'deleted') return { task: await deleteTask(options), deleted: true, notified: false };
  assertMetadataDepth(options.metadata);
  const config = await store.readConfig(options.team);
  const actor = options.as ?? leadName(config);
  if (options.as !== undefined) requireMember(config, options.as, 'member');
  if (options.owner) requireMember(config, options.owner, 'owner');
  await removeDependencies(store, options);
  await addDependencies(store, options);
  let previousOwner: string | undefined;
  const task = await store.updateTask(options.team, options.id, async (t) => {
    previousOwner = t.owner;
    await assertUnblocked(store, options, t);
    applyFields(t, options, actor);
    return t;
  });
  await recordTasks({ ...options, root: store }, 'updated', [task]);
  const ownerChanged = !isUnowned(task) && task.owner !== previousOwner;
  const notified = ownerChanged ? await notifyAssignment(options, task, actor) : false;
  return { task, deleted: false, notified };
}

function applyFields(t: Task, o: UpdateTaskOptions, actor: string): void {
  if (o.subject !== undefined) t.subject = o.subject;
  if (o.description !== undefined) t.description = o.description;
  if (o.activeForm !== undefined) t.activeForm = o.activeForm;
  if (o.owner !== undefined) t.owner = o.owner === null || o.owner === '' ? undefined : o.owner;
  if (o.status !== undefined && o.status !== 'deleted') {
    if (o.status === 'in_progress' && isUnowned(t) && o.owner === undefined) t.owner = actor;
    t.status = o.status;
  }
  if (o.metadata) t.metadata = mergeMetadata(t.metadata, o.metadata);
}

/** Per-key merge; `null` deletes a key; an emptied object is dropped. Keys are set as own data properties. */
export function mergeMetadata(current: Record<string, unknown> | undefined, patch: MetadataPatch): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(current ?? {})) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

async function assertUnblocked(store: Store, o: UpdateTaskOptions, t: Task): Promise<void> {
  if (o.status !== 'in_progress' && o.status !== 'completed') return;
  if (t.status === o.status) return;
  const byId = indexTasks(await store.listTasks(o.team));
  const open = openBlockers(t, byId);
  if (open.length === 0) return;
  const names = open.map((id) => `#${id}`).join(', ');
  throw new MailroomError('TASK_BLOCKED', `Task #${t.id} is blocked by ${names}, not completed yet. Complete ${open.length > 1 ? 'them' : 'it'} first.`, {
    details: { team: o.team, id: t.id, blockedBy: open },
  });
}

/** Adds blocks/blockedBy edges on both tasks under the list lock. */
async function addDependencies(store: Store, o: UpdateTaskOptions): Promise<void> {
  const edges = [
    ...(o.addBlockedBy ?? []).map((b) => [o.id, b] as const),
    ...(o.addBlocks ?? []).map((b) => [b, o.id] as const),
  ];
  if (edges.length === 0) return;
  await store.withTaskList(o.team, async () => {
    await requireTasks(store, o.team, [o.id, ...edges.flat()]);
    const byId = indexTasks(await store.listTasks(o.team));
    for (const [blocked, blocker] of edges) {
      const cycle = findCycle(blocked, blocker, byId);
      if (cycle) throw cycleError(o.team, blocked, blocker, cycle);
      byId.get(blocked)?.blockedBy.push(blocker);
    }
    for (const [blocked, blocker] of edges) {
      await store.updateTask(o.team, blocked, (t) => addUnique(t.blockedBy, blocker));
      await store.updateTask(o.team, blocker, (t) => addUnique(t.blocks, blocked));
    }
  });
}

/** Removes blocks/blockedBy edges from both tasks under the list lock (the other task only if it exists). */
async function removeDependencies(store: Store, o: UpdateTaskOptions): Promise<void> {
  const edges = [
    ...(o.removeBlockedBy ?? []).map((b) => [o.id, b] as const),
    ...(o.removeBlocks ?? []).map((b) => [b, o.id] as const),
  ];
  if (edges.length === 0) return;
  await store.withTaskList(o.team, async () => {
    await requireTasks(store, o.team, [o.id]);
    const byId = indexTasks(await store.listTasks(o.team));
    for (const [blocked, blocker] of edges) {
      if (byId.get(blocked)?.blockedBy.includes(blocker)) await store.updateTask(o.team, blocked, (t) => removeValue(t.blockedBy, blocker));
      if (byId.get(blocker)?.blocks.includes(blocked)) await store.updateTask(o.team, blocker, (t) => removeValue(t.blocks, blocked));
    }
  });
}

function removeValue(list: string[], value: string): void {
  for (let i = list.indexOf(value); i >= 0; i = list.indexOf(value)) list.splice(i, 1);
}

function cycleError(team: string, blocked: string, blocker: string, cycle: string[]): MailroomError {
  const shown = cycle.map((id) => `#${id}`).join(' → ');
  return new MailroomError('TASK_CYCLE', `Making #${blocked} blocked by #${blocker} would create a dependency cycle: ${shown} (each blocked by the next). Nothing was changed.`, {
    details: { team, cycle },
  });
}
