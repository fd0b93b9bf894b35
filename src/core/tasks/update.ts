/**
 * Updating a task (reference §5 "Update"): dependency removals and additions written to both tasks
 * (one store transition each, an addition refused whole on a cycle), then the fields (another:
 * shallow changes, per-key metadata merge, TASK_BLOCKED while a blocker is open, the actor as
 * owner when an unowned task starts), and a task_assignment to a new owner. Before the first of
 * these writes the whole update is checked against the board as read (unknown ids, cycles,
 * TASK_BLOCKED on the links as they will be), so a refusal changes nothing.
 */
import { leadName, requireMember } from '../../domain/roster.js';
import { addUnique, assertMetadataDepth, assertNoCycles, assertTaskId, dependencyNotFound, indexTasks, taskNotFound, type Edge } from '../../domain/task-board.js';
import { applyTaskChange } from '../../domain/task-patch.js';
import type { Task, TaskStatus } from '../../protocol/task.js';
import { isUnowned } from '../../protocol/task.js';
import type { TaskPatch, TeamStore } from '../../store/team-store.js';
import { opOf, teamOf, type TeamOptions } from '../context.js';
import { notifyAssignment } from './assignment-message.js';
import { deleteTask, type MetadataPatch } from './board.js';
import { requireHooksPass } from '../teams/hooks.js';
import { assignmentActions, requirePermitted } from '../teams/policy.js';
import type { PolicyAction } from '../../domain/policy.js';
import { journalRefusal } from '../live/journal-refusals.js';
import { fenceOf } from '../../domain/task-fence.js';
import { isMailroomError } from '../../errors.js';

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
  /**
   * An owner's write: the fencing token its claim returned (docs/runtime.md "Fencing tokens").
   * Refused with TASK_FENCED (journalled as a `refused` event by `as`) unless `as` still owns the
   * task under this token; then nothing is written. A member removed meanwhile gets TASK_FENCED
   * too (its tasks were unassigned), not MEMBER_NOT_FOUND.
   */
  fencingToken?: number;
  /**
   * `as` is the caller's own member (a runtime writing its task's outcome), which a forced stop may
   * have removed meanwhile: journalled as the actor without checking the roster.
   */
  asSelf?: boolean;
}

/** Result of {@link updateTask}: the task after the change (or as it was when deleted). */
export interface UpdateTaskResult {
  task: Task;
  deleted: boolean;
  /** True when a task_assignment was sent to a new owner. */
  notified: boolean;
  /** Set when this change gave the task a new owner (a claim): the fencing token it issued. */
  fencingToken?: number;
  /**
   * Set when the change reopened the task (pending or in_progress) for an owner who had left the
   * team: that owner, whom the store cleared in the same step (domain reopensForDeparted).
   */
  departedOwner?: string;
}

/**
 * Applies the changes. Dependencies are removed first, then added (refused on unknown ids or
 * cycles, nothing changed then), then the fields. Removing a dependency the task does not have
 * changes nothing; an id with no task file (a dangling reference) can be removed.
 * @throws INVALID_ARGUMENT (malformed id, metadata too deep), TASK_NOT_FOUND, TASK_CYCLE, TASK_BLOCKED, MEMBER_NOT_FOUND,
 * NOT_PERMITTED (the team policy: deleteTasks, assignTasks — also taking a task another member owns —, the message rule for a new owner's task_assignment),
 * TASK_CONFLICT (a teammate taking a task that another member claimed meanwhile)
 */
export async function updateTask(options: UpdateTaskOptions): Promise<UpdateTaskResult> {
  const store = teamOf(options);
  assertTaskId(options.id);
  if (options.status === 'deleted') return { task: await deleteTask(options), deleted: true, notified: false };
  assertMetadataDepth(options.metadata);
  const config = await store.readConfig(options.team);
  const actor = options.as ?? leadName(config);
  if (options.as !== undefined && options.fencingToken === undefined && options.asSelf !== true) requireMember(config, options.as, 'member');
  if (options.owner) requireMember(config, options.owner, 'owner');
  // The policy binds the updater: giving the task to another member assigns it and messages it;
  // taking it from another member (or clearing its owner) assigns it too.
  const owning = await ownerChange(store, options, actor, leadName(config));
  await requirePermitted(options, actor, owning.actions, config);
  if (options.status === 'completed') await completionHooks(options, actor);
  const op = opOf(options, actor);
  const removed = [...(options.removeBlockedBy ?? []).map((b) => ({ blocked: options.id, blocker: b })), ...(options.removeBlocks ?? []).map((b) => ({ blocked: b, blocker: options.id }))];
  const edges = [...(options.addBlockedBy ?? []).map((b) => ({ blocked: options.id, blocker: b })), ...(options.addBlocks ?? []).map((b) => ({ blocked: b, blocker: options.id }))];
  const patch: TaskPatch = { subject: options.subject, description: options.description, activeForm: options.activeForm, owner: options.owner, status: options.status, metadata: options.metadata, fencingToken: options.fencingToken, ...(owning.expect ? { expect: owning.expect } : {}) };
  if (removed.length + edges.length > 0) await assertWholeUpdate(store, options, removed, edges, patch, actor);
  if (removed.length > 0) await store.unlinkTasks(options.team, removed, op);
  if (edges.length > 0) await store.linkTasks(options.team, edges, op);
  const { value } = await store.patchTask(options.team, options.id, patch, op).catch((err: unknown) => rethrowFenced(options, actor, err));
  const ownerChanged = !isUnowned(value.task) && value.task.owner !== value.previous.owner;
  const notified = ownerChanged ? await notifyAssignment(options, value.task, actor) : false;
  const issued = fenceOf(value.task) !== fenceOf(value.previous) && value.task.owner === actor ? { fencingToken: fenceOf(value.task) } : {};
  const departed = options.owner === undefined && !isUnowned(value.previous) && value.task.owner !== value.previous.owner ? { departedOwner: value.previous.owner as string } : {};
  return { task: value.task, deleted: false, notified, ...issued, ...departed };
}

/**
 * The policy actions of `options.owner` as `actor`: {@link assignmentActions} for another owner;
 * for the actor itself or nobody (a teammate taking or dropping the task), `assignTasks` with
 * `from` when another member owns it now, else a compare-and-set on the owner read here, so a
 * member's claim that lands between this read and the write is not taken over (TASK_CONFLICT).
 * The lead is never refused and takes as before.
 */
async function ownerChange(store: TeamStore, options: UpdateTaskOptions, actor: string, lead: string): Promise<{ actions: PolicyAction[]; expect?: TaskPatch['expect'] }> {
  const actions = assignmentActions(options.owner, actor);
  if (actions.length > 0 || options.owner === undefined || actor === lead) return { actions };
  const task = await store.readTask(options.team, options.id);
  if (!task) return { actions }; // the write reports TASK_NOT_FOUND
  const owner = isUnowned(task) ? null : task.owner;
  if (owner !== null && owner !== actor) return { actions: [{ rule: 'assignTasks', owner: options.owner ?? '', from: owner }] };
  return { actions, expect: { owner } };
}

/** Journals a TASK_FENCED refusal with the real actor (the stale owner), then rethrows whatever `err` is. */
async function rethrowFenced(options: UpdateTaskOptions, actor: string, err: unknown): Promise<never> {
  if (isMailroomError(err, 'TASK_FENCED')) await journalRefusal(options, actor, { action: 'task_update', rule: 'fencing', code: err.code, message: err.message, target: `#${options.id}` });
  throw err;
}

/**
 * Checks an update that changes links before its first write, on a copy of the board as read: the
 * task exists, removals then additions applied (an added edge naming no task: TASK_NOT_FOUND; one
 * closing a cycle: TASK_CYCLE), then the patch on the result (TASK_BLOCKED). The store's own
 * transitions check again as they write; this makes a refusal change nothing.
 */
async function assertWholeUpdate(store: TeamStore, options: UpdateTaskOptions, removed: readonly Edge[], added: readonly Edge[], patch: TaskPatch, actor: string): Promise<void> {
  const task = await store.readTask(options.team, options.id, { strict: true });
  if (!task) throw taskNotFound(options.team, options.id);
  // Every task an added edge names, read strictly first: a file that does not parse is FILE_CORRUPT
  // naming it (never a missing task), before the board is listed.
  for (const id of new Set(added.flatMap((e) => [e.blocked, e.blocker]))) if (id !== task.id && !(await store.readTask(options.team, id, { strict: true }))) throw dependencyNotFound(options.team, id);
  const board = indexTasks(structuredClone([...(await store.listTasks(options.team)).filter((t) => t.id !== task.id), task]));
  for (const { blocked, blocker } of removed) {
    const b = board.get(blocked);
    if (b) b.blockedBy = b.blockedBy.filter((id) => id !== blocker);
    const k = board.get(blocker);
    if (k) k.blocks = k.blocks.filter((id) => id !== blocked);
  }
  for (const { blocked, blocker } of added) for (const id of [blocked, blocker]) if (!board.has(id)) throw dependencyNotFound(options.team, id);
  assertNoCycles(options.team, added, board);
  for (const { blocked, blocker } of added) {
    addUnique(board.get(blocked)!.blockedBy, blocker);
    addUnique(board.get(blocker)!.blocks, blocked);
  }
  applyTaskChange(options.team, structuredClone(board.get(task.id)!), patch, actor, board, Date.now()); // a check on a copy: its token is thrown away
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
