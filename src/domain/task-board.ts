/**
 * Pure task-board rules (reference §5): blocked, ready, open blockers, dependency cycles, id order
 * and id form. Shared by every store backend (which applies them inside its transitions) and by
 * core (which shows the board).
 */
import { MailroomError } from '../errors.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../protocol/json-depth.js';
import type { Task } from '../protocol/task.js';
import { isUnowned } from '../protocol/task.js';

/** Ids in `task.blockedBy` that name an existing task that is not completed. */
export function openBlockers(task: Task, byId: ReadonlyMap<string, Task>): string[] {
  return task.blockedBy.filter((id) => {
    const blocker = byId.get(id);
    return blocker !== undefined && blocker.status !== 'completed';
  });
}

/** True when the task is hidden from listings (`metadata._internal: true`, Claude Code 2.1.39). */
export function isInternal(task: Task): boolean {
  return task.metadata?._internal === true;
}

/** Ready = pending, unowned, no open blocker, not internal. */
export function isReady(task: Task, byId: ReadonlyMap<string, Task>): boolean {
  return task.status === 'pending' && isUnowned(task) && !isInternal(task) && openBlockers(task, byId).length === 0;
}

/** Map of tasks by id. */
export function indexTasks(tasks: readonly Task[]): Map<string, Task> {
  return new Map(tasks.map((t) => [t.id, t]));
}

/**
 * If making `task` blocked by `blocker` would close a cycle, returns the cycle as a list of ids
 * starting and ending with `task` (e.g. `["1", "2", "1"]`); otherwise undefined.
 */
export function findCycle(task: string, blocker: string, byId: ReadonlyMap<string, Task>): string[] | undefined {
  if (task === blocker) return [task, task];
  const path = pathVia(blocker, task, byId);
  return path ? [task, ...path] : undefined;
}

/**
 * Path from `from` to `to` following blockedBy edges, or undefined. Breadth-first with a parent
 * map (no recursion: chains of many thousands of tasks must not overflow the stack).
 */
function pathVia(from: string, to: string, byId: ReadonlyMap<string, Task>): string[] | undefined {
  const parent = new Map<string, string | undefined>([[from, undefined]]);
  const queue = [from];
  for (let i = 0; i < queue.length; i++) {
    const id = queue[i]!;
    if (id === to) return unwind(parent, id);
    for (const next of byId.get(id)?.blockedBy ?? []) {
      if (parent.has(next)) continue;
      parent.set(next, id);
      queue.push(next);
    }
  }
  return undefined;
}

function unwind(parent: ReadonlyMap<string, string | undefined>, end: string): string[] {
  const path: string[] = [];
  for (let id: string | undefined = end; id !== undefined; id = parent.get(id)) path.push(id);
  return path.reverse();
}

/**
 * The dependency cycles among open tasks (status not `completed`) — none of a cycle's tasks can
 * ever start, since each waits for the next. Each cycle is its ids in blockedBy order, first id
 * repeated at the end (`["1", "2", "1"]`: #1 is blocked by #2, which is blocked by #1; a task
 * blocked by itself is `["3", "3"]`); cycles come in the order of their lowest task id reached
 * first. A task that only waits on a cycle is not listed. Mailroom's own writes refuse a cycle
 * (TASK_CYCLE); this finds one written into the files by other means (`mailroom doctor`).
 * Linear in tasks and edges: tasks that can start are peeled off first (Kahn), and from each
 * remaining one the walk along remaining blockers ends in a cycle or in a walk already made.
 */
export function openCycles(tasks: readonly Task[]): string[][] {
  const open = new Map(tasks.filter((t) => t.status !== 'completed').map((t) => [t.id, t]));
  const blockersOf = (id: string) => [...new Set(open.get(id)?.blockedBy ?? [])].filter((b) => open.has(b));
  const waiting = new Map<string, number>();
  const dependents = new Map<string, string[]>();
  for (const id of open.keys()) {
    const blockers = blockersOf(id);
    waiting.set(id, blockers.length);
    for (const b of blockers) {
      const list = dependents.get(b);
      if (list) list.push(id);
      else dependents.set(b, [id]);
    }
  }
  const free = [...waiting].filter(([, n]) => n === 0).map(([id]) => id);
  for (let i = 0; i < free.length; i++) {
    for (const d of dependents.get(free[i]!) ?? []) {
      const n = waiting.get(d)! - 1;
      waiting.set(d, n);
      if (n === 0) free.push(d);
    }
  }
  const stuck = new Set([...waiting].filter(([, n]) => n > 0).map(([id]) => id));
  const cycles: string[][] = [];
  const walked = new Set<string>();
  for (const start of [...stuck].sort(compareTaskIds)) {
    const path: string[] = [];
    const at = new Map<string, number>();
    let id: string | undefined = start;
    // Every stuck task waits on a stuck blocker (else it would have been peeled off).
    while (id !== undefined && !walked.has(id)) {
      walked.add(id);
      at.set(id, path.length);
      path.push(id);
      id = blockersOf(id).find((b) => stuck.has(b));
    }
    if (id !== undefined && at.has(id)) cycles.push([...path.slice(at.get(id)), id]);
  }
  return cycles;
}

/** Adds `value` to `list` unless present. */
export function addUnique(list: string[], value: string): void {
  if (!list.includes(value)) list.push(value);
}

/**
 * Refuses metadata values nested deeper than {@link MAX_JSON_DEPTH} levels (they could not be
 * written back). @throws INVALID_ARGUMENT naming the key
 */
export function assertMetadataDepth(metadata: Readonly<Record<string, unknown>> | undefined): void {
  for (const [key, value] of Object.entries(metadata ?? {})) {
    if (!nestsDeeperThan(value)) continue;
    throw new MailroomError('INVALID_ARGUMENT', `Metadata "${key}" nests arrays/objects more than ${MAX_JSON_DEPTH} levels deep: flatten the value.`, {
      details: { key, maxDepth: MAX_JSON_DEPTH },
    });
  }
}

/**
 * Refuses an id that is not a positive decimal integer without leading zeros, the only form task
 * files have (reference §5). @throws INVALID_ARGUMENT
 */
export function assertTaskId(id: string): void {
  if (TASK_ID_PATTERN.test(id)) return;
  throw new MailroomError('INVALID_ARGUMENT', `${JSON.stringify(id)} is not a task id: ids are positive whole numbers without leading zeros, e.g. 3.`, { details: { id } });
}

/** A task id: a positive decimal integer without leading zeros, the only form task files have (reference §5). */
export const TASK_ID_PATTERN = /^[1-9][0-9]*$/;

/**
 * Orders decimal task ids numerically, exactly at any length (no leading zeros, so a shorter id is
 * smaller). `Number()` would round ids past 2^53 and misorder them.
 */
export function compareTaskIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** TASK_NOT_FOUND for `id` in `team`, pointing at `mailroom task list`. */
export function taskNotFound(team: string, id: string): MailroomError {
  return new MailroomError('TASK_NOT_FOUND', `Task #${id} not found in team "${team}". List tasks with \`mailroom task list\`.`, { details: { team, id } });
}

/** TASK_NOT_FOUND for a dependency that names no task. */
export function dependencyNotFound(team: string, id: string): MailroomError {
  return new MailroomError('TASK_NOT_FOUND', `Task #${id} not found in team "${team}": a dependency must name an existing task.`, { details: { team, id } });
}

/** A dependency: `blocked` cannot start until `blocker` is completed. */
export interface Edge {
  blocked: string;
  blocker: string;
}

/**
 * Checks edges to add against the board, all before any is applied: refuses the first that would
 * close a cycle (with the edges before it counted), so that a refused batch changes nothing.
 * @throws TASK_CYCLE naming the cycle, e.g. `#1 → #2 → #1`
 */
export function assertNoCycles(team: string, edges: readonly Edge[], byId: ReadonlyMap<string, Task>): void {
  const board = new Map([...byId].map(([id, t]) => [id, { ...t, blockedBy: [...t.blockedBy] }]));
  for (const { blocked, blocker } of edges) {
    const cycle = findCycle(blocked, blocker, board);
    if (cycle) throw taskCycle(team, blocked, blocker, cycle);
    board.get(blocked)?.blockedBy.push(blocker);
  }
}

/** TASK_CYCLE: making `blocked` blocked by `blocker` would close `cycle` (ids, e.g. `1, 2, 1`). Both backends word it so. */
export function taskCycle(team: string, blocked: string, blocker: string, cycle: readonly string[]): MailroomError {
  const shown = cycle.map((id) => `#${id}`).join(' → ');
  return new MailroomError('TASK_CYCLE', `Making #${blocked} blocked by #${blocker} would create a dependency cycle: ${shown} (each blocked by the next). Nothing was changed.`, {
    details: { team, cycle: [...cycle] },
  });
}

/** Tasks in numeric id order (a copy). */
export function byTaskId(tasks: Iterable<Task>): Task[] {
  return [...tasks].sort((a, b) => compareTaskIds(a.id, b.id));
}
