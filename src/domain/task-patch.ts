/**
 * Changing and creating tasks (reference §5 "Update"): shallow field changes, per-key metadata
 * merge (`null` deletes a key; an emptied `metadata` is dropped), TASK_BLOCKED while a blocker is
 * open, the rule that starting an unowned task makes the actor its owner, and compare-and-set
 * expectations (TASK_CONFLICT). Pure: a store backend applies it inside its transition.
 */
import { MailroomError } from '../errors.js';
import { isUnowned, type Task, type TaskStatus } from '../protocol/task.js';
import { openBlockers } from './task-board.js';
import { fenceRefusal, issueFence } from './task-fence.js';

/**
 * A task change (`TeamStore.patchTask`'s input, re-exported by src/store/team-store.ts). `null`
 * clears a field; metadata is merged per key (`null` deletes a key).
 */
export interface TaskPatch {
  subject?: string | undefined;
  description?: string | undefined;
  activeForm?: string | null | undefined;
  owner?: string | null | undefined;
  status?: TaskStatus | undefined;
  metadata?: Readonly<Record<string, unknown>> | undefined;
  /** Compare-and-set: refuse (TASK_CONFLICT) unless the task still has these values (`owner: null`: unowned). */
  expect?: { status?: TaskStatus; owner?: string | null } | undefined;
  /**
   * An owner's write: the fencing token its claim got (src/domain/task-fence.ts). Refused
   * (TASK_FENCED) unless the actor still owns the task under exactly this token.
   */
  fencingToken?: number | undefined;
}

/** A new task's fields (`TeamStore.createTask`'s input; the store assigns its id). */
export interface TaskDraft {
  subject: string;
  description: string;
  activeForm?: string | undefined;
  owner?: string | undefined;
  /** Ids of existing tasks that must complete first (linked both ways). */
  blockedBy?: readonly string[] | undefined;
  /** Keys with a `null` value are dropped. */
  metadata?: Readonly<Record<string, unknown>> | undefined;
}

/** Per-key merge; `null` deletes a key; an emptied object is dropped. Keys are set as own data properties. */
export function mergeMetadata(current: Readonly<Record<string, unknown>> | undefined, patch: Readonly<Record<string, unknown>>): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(current ?? {})) define(out, k, v);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else define(out, k, v);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * True when `change` reopens `task` for an owner who has left: a status change into an open status
 * (pending, in_progress) that names no owner, on a task owned by someone `isMember` does not know
 * (a name or an agentId of the roster the store read in the same step). Such a change clears the
 * owner (new-user trial: a completed task set back to pending kept its departed owner, so nobody
 * could claim it; the member's open tasks are unassigned when it leaves, its completed ones keep it
 * as their history). The Redis store's patch-task.lua applies the same rule.
 */
export function reopensForDeparted(task: Task, change: TaskPatch, isMember: (name: string) => boolean): boolean {
  const open = change.status === 'pending' || change.status === 'in_progress';
  return open && change.status !== task.status && change.owner === undefined && !isUnowned(task) && !isMember(task.owner as string);
}

/**
 * Applies `change` to `task` in place, as `actor`. `byId` is the board (for blockers).
 * @returns the top-level keys whose value changed (empty: nothing to write)
 * A change that gives the task a new owner issues its next fencing token, at the store's clock
 * `nowMs` (epoch ms; ./task-fence.ts nextFence). `isMember` (the roster, read in the same step):
 * a reopening change clears an owner who left ({@link reopensForDeparted}); without it, no owner is
 * judged departed.
 * @throws TASK_FENCED (`fencingToken` stale), TASK_CONFLICT (`expect` not met), TASK_BLOCKED (starting or completing with an open blocker)
 */
export function applyTaskChange(team: string, task: Task, change: TaskPatch, actor: string | undefined, byId: ReadonlyMap<string, Task>, nowMs: number, isMember?: (name: string) => boolean): string[] {
  if (change.fencingToken !== undefined) {
    const fenced = fenceRefusal(team, task, actor, change.fencingToken);
    if (fenced) throw fenced;
  }
  assertExpected(team, task, change);
  assertUnblocked(team, task, change, byId);
  const before = snapshot(task);
  const t = task as Record<string, unknown>;
  if (change.subject !== undefined) task.subject = change.subject;
  if (change.description !== undefined) task.description = change.description;
  if (change.activeForm === null) delete t.activeForm;
  else if (change.activeForm !== undefined) task.activeForm = change.activeForm;
  if (change.owner === null || change.owner === '') delete t.owner;
  else if (change.owner !== undefined) task.owner = change.owner;
  if (change.status !== undefined) {
    if (isMember !== undefined && reopensForDeparted(task, change, isMember)) delete t.owner;
    if (change.status === 'in_progress' && isUnowned(task) && change.owner === undefined && actor !== undefined) task.owner = actor;
    task.status = change.status;
  }
  if (!isUnowned(task) && task.owner !== before.owner) issueFence(task, nowMs); // a new owner is a claim
  if (change.metadata) {
    const merged = mergeMetadata(task.metadata, change.metadata);
    if (merged === undefined) delete t.metadata;
    else task.metadata = merged;
  }
  return changedKeys(before, snapshot(task));
}

/** A new task in Claude Code's key order: id, subject, description, activeForm?, owner?, status, blocks, blockedBy, metadata?. */
export function draftTask(id: string, d: TaskDraft): Task {
  const task: Record<string, unknown> = { id, subject: d.subject, description: d.description };
  if (d.activeForm !== undefined) task.activeForm = d.activeForm;
  if (d.owner) task.owner = d.owner;
  task.status = 'pending';
  task.blocks = [];
  task.blockedBy = [...new Set(d.blockedBy ?? [])];
  const metadata = Object.entries(d.metadata ?? {}).filter(([, v]) => v !== null);
  if (metadata.length > 0) {
    const m: Record<string, unknown> = {};
    for (const [k, v] of metadata) define(m, k, v);
    task.metadata = m;
  }
  return task as Task;
}

/** Top-level keys whose JSON differs between two versions of a record (added and removed keys included). */
export function changedKeys(before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
}

function assertExpected(team: string, task: Task, change: TaskPatch): void {
  const want = change.expect;
  if (!want) return;
  const owner = isUnowned(task) ? null : task.owner;
  const statusOk = want.status === undefined || want.status === task.status;
  const ownerOk = want.owner === undefined || (want.owner === null ? owner === null : want.owner === owner);
  if (statusOk && ownerOk) return;
  throw taskConflict(team, task.id, task.status, owner ?? null, want);
}

/** TASK_CONFLICT: task `id` is now `status`/`owner` (null: unowned), not what the change expected. Both backends word it so. */
export function taskConflict(team: string, id: string, status: string, owner: string | null, expected?: TaskPatch['expect']): MailroomError {
  return new MailroomError('TASK_CONFLICT', `Task #${id} changed meanwhile (it is ${status}${owner ? `, owned by ${owner}` : ', unowned'}): nothing was written. Read it again and retry.`, {
    details: { team, id, status, owner, ...(expected ? { expected } : {}) },
  });
}

/** TASK_BLOCKED for a status change: task `id` waits on the `open` blockers. Both backends word it so. */
export function taskBlocked(team: string, id: string, open: readonly string[]): MailroomError {
  const names = open.map((b) => `#${b}`).join(', ');
  return new MailroomError('TASK_BLOCKED', `Task #${id} is blocked by ${names}, not completed yet. Complete ${open.length > 1 ? 'them' : 'it'} first.`, {
    details: { team, id, blockedBy: [...open] },
  });
}

function assertUnblocked(team: string, task: Task, change: TaskPatch, byId: ReadonlyMap<string, Task>): void {
  if (change.status !== 'in_progress' && change.status !== 'completed') return;
  if (task.status === change.status) return;
  const open = openBlockers(task, byId);
  if (open.length === 0) return;
  throw taskBlocked(team, task.id, open);
}

function snapshot(task: Task): Record<string, unknown> {
  return JSON.parse(JSON.stringify(task)) as Record<string, unknown>;
}

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
