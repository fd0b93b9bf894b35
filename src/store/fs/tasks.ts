/**
 * Task files: `tasks/<listId>/<id>.json`, one per task, locked with `<id>.json.lock`; list-wide
 * operations lock `tasks/<listId>/.lock` (lock directory `.lock.lock`); `.highwatermark` keeps the
 * highest id ever used (reference §5, §6).
 *
 * Each transition does its own lock choreography, always in one order — the list lock (when the
 * transition needs the whole board to stay still: create, delete, claims without an id or with the
 * busy check, dependency edits, unassigning) around task locks — and decides with the pure rules of
 * src/domain/ while it holds them. Every changed task file is journalled right after its write,
 * under its lock.
 */
import { checkIdempotencyKey } from '../../domain/idempotency-key.js';
import { statSync } from 'node:fs';
import { readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { MailroomError, isErrno } from '../../errors.js';
import { taskEvent } from '../../domain/events.js';
import { applyClaim, busyRefusal, claimCandidates, claimRefusal } from '../../domain/task-claim.js';
import { capabilitiesOf, missingCapabilities, taskRequires } from '../../domain/capabilities.js';
import { addUnique, assertNoCycles, compareTaskIds, dependencyNotFound, indexTasks, taskNotFound, TASK_ID_PATTERN, type Edge } from '../../domain/task-board.js';
import { applyTaskChange, draftTask, changedKeys, reopensForDeparted } from '../../domain/task-patch.js';
import { FENCE_KEY, fenceOf } from '../../domain/task-fence.js';
import type { TeamEventRecord } from '../../protocol/events.js';
import { TaskSchema, canonicalTask, type Task, type TaskStatus } from '../../protocol/task.js';
import { corruptFile, readJsonFile, writeJsonFile, writeTextFile, FILE_MODE } from './json-file.js';
import type { HeldLock } from './lock.js';
import type { ClaimRequest, CreatedTask, CreateTaskOptions, OpContext, PatchedTask, PutTaskOptions, TaskDraft, TaskPatch, Transition, UnassignOptions } from '../team-store.js';
import { ensureDir, locked, stampOf, type FsContext } from './context.js';
import { readTaskKey, writeTaskKey } from './idempotency.js';
import { readMemberRecord } from './member-records.js';
import { journal } from './journal.js';
import { mergeHighWatermark, mergeTask } from './recover-object.js';
import { readConfig } from './teams.js';
import { noteTaskWritten, readyTasks, withTaskIndex } from './task-index.js';

const TASK_FILE = /^([1-9][0-9]*)\.json$/;

/** Ids of every `<id>.json` file in the list, valid or not, in ascending numeric order (exact decimal strings). */
async function fileIds(ctx: FsContext, team: string): Promise<string[]> {
  try {
    const names = await readdir(ctx.layout.taskDir(team));
    return names.flatMap((n) => TASK_FILE.exec(n)?.[1] ?? []).sort(compareTaskIds);
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return [];
    throw err;
  }
}

type TaskRead = { state: 'ok'; task: Task; text: string } | { state: 'missing' } | { state: 'invalid'; error: MailroomError };

async function readTaskFile(ctx: FsContext, team: string, id: string): Promise<TaskRead> {
  if (!TASK_ID_PATTERN.test(id)) return { state: 'missing' };
  const path = ctx.layout.taskPath(team, id);
  let read;
  try {
    read = await readJsonFile(path);
  } catch (error) {
    if (error instanceof MailroomError) return { state: 'invalid', error };
    throw error;
  }
  if (read.state === 'missing') return read;
  const parsed = TaskSchema.safeParse(read.value);
  if (!parsed.success) return { state: 'invalid', error: corruptFile(path, parsed.error, 'does not match the task format') };
  const stored = (read.value as Task).id;
  if (stored !== id) {
    return { state: 'invalid', error: corruptFile(path, undefined, `does not match the task format: its id ${JSON.stringify(stored)} differs from its file name ${id}.json`) };
  }
  return { state: 'ok', task: read.value as Task, text: read.text };
}

/** Paths already reported as skipped by this process (a broken file is reported once, not per poll). */
const reported = new Set<string>();

/** Valid tasks in numeric id order; invalid files are skipped (as Claude Code does), each reported once per process. */
export async function listTasks(ctx: FsContext, team: string): Promise<Task[]> {
  const tasks: Task[] = [];
  for (const id of await fileIds(ctx, team)) {
    const read = await readTaskFile(ctx, team, id);
    if (read.state === 'ok') tasks.push(read.task);
    if (read.state === 'invalid' && !reported.has(String(read.error.details.path))) {
      reported.add(String(read.error.details.path));
      ctx.lock.onWarning?.(`mailroom: skipping task file: ${read.error.message}`);
    }
  }
  return tasks;
}

/** One task, undefined when missing or invalid (as Claude Code); `strict` throws FILE_CORRUPT for an invalid one. */
export async function readTask(ctx: FsContext, team: string, id: string, options: { strict?: boolean } = {}): Promise<Task | undefined> {
  const read = await readTaskFile(ctx, team, id);
  if (read.state === 'invalid' && options.strict) throw read.error;
  return read.state === 'ok' ? read.task : undefined;
}

/** The high-water mark, exact. @throws FILE_CORRUPT when it is not a whole number */
async function highWatermark(ctx: FsContext, team: string): Promise<bigint> {
  const path = ctx.layout.highWatermarkPath(team);
  try {
    const text = (await readFile(path, 'utf8')).trim();
    if (!/^[0-9]+$/.test(text)) throw corruptFile(path, undefined, 'does not hold a whole number');
    return BigInt(text);
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return 0n;
    if (isErrno(err, 'EISDIR')) throw corruptFile(path, undefined, 'is a directory, not a file');
    throw err;
  }
}

/** The highest id ever used, exact decimal ("0" when none): max(file ids, `.highwatermark`). */
export async function readHighWatermark(ctx: FsContext, team: string): Promise<string> {
  const highestFile = BigInt((await fileIds(ctx, team)).at(-1) ?? 0);
  const mark = await highWatermark(ctx, team);
  return String(highestFile > mark ? highestFile : mark);
}

/** Runs `fn` under the list lock (the `.lock` anchor is created first). */
async function withList<T>(ctx: FsContext, team: string, fn: (lock: HeldLock) => Promise<T>): Promise<T> {
  const anchor = ctx.layout.listLockAnchor(team);
  await ensureDir(ctx.layout.taskDir(team));
  await writeFile(anchor, '', { flag: 'a', mode: FILE_MODE });
  return locked(ctx, anchor, fn);
}

/**
 * Locked read-modify-write of one task: `change` (synchronous, pure) mutates the task read under the
 * lock and returns the keys it changed; the file is written (and journalled) only when some did.
 * @throws TASK_NOT_FOUND, FILE_CORRUPT, whatever `change` throws (then nothing is written)
 */
async function changeTask(ctx: FsContext, team: string, id: string, op: OpContext | undefined, change: (task: Task) => string[] | Promise<string[]>): Promise<{ task: Task; previous: Task; changed: string[]; events: TeamEventRecord[] }> {
  const path = ctx.layout.taskPath(team, id);
  if ((await readTaskFile(ctx, team, id)).state === 'missing') throw taskNotFound(team, id);
  return locked(ctx, path, async (lock) => {
    const read = await readTaskFile(ctx, team, id);
    if (read.state === 'missing') throw taskNotFound(team, id);
    if (read.state === 'invalid') throw read.error;
    const previous = structuredClone(read.task);
    const keys = Object.keys(read.task);
    const changed = await change(read.task);
    if (changed.length === 0) return { task: read.task, previous, changed, events: [] };
    const check = TaskSchema.safeParse(read.task);
    if (!check.success) throw new MailroomError('INTERNAL', `Refusing to write an invalid task to ${path}: ${check.error.message}`);
    const task = canonicalTask(read.task, keys);
    await writeJsonFile(path, task, lock, { recovery: { baseText: read.text, merge: mergeTask } });
    await noteTaskWritten(ctx, team, id, task);
    const events = [taskEvent(stampOf(team, op), 'updated', task, changed)];
    await journal(ctx, team, events);
    return { task, previous, changed, events };
  });
}

/** Writes a brand-new task file (under the list lock) and journals its creation. */
async function writeNewTask(ctx: FsContext, team: string, task: Task, list: HeldLock, op: OpContext | undefined): Promise<TeamEventRecord[]> {
  await writeJsonFile(ctx.layout.taskPath(team, task.id), canonicalTask(task), list, { exclusive: true });
  await noteTaskWritten(ctx, team, task.id, task);
  const events = [taskEvent(stampOf(team, op), 'created', task)];
  await journal(ctx, team, events);
  return events;
}

/** Strictly reads each id: TASK_NOT_FOUND (as a dependency) for a missing one, FILE_CORRUPT for an invalid one. */
async function requireDependencies(ctx: FsContext, team: string, ids: readonly string[]): Promise<void> {
  for (const id of ids) if (!(await readTask(ctx, team, id, { strict: true }))) throw dependencyNotFound(team, id);
}

/**
 * Creates a task with the next id, under the list lock, and links its blockers both ways. With an
 * idempotency key the id is reserved first (idempotency.ts), so a retry or a racing twin gets the
 * same task. @throws TEAM_NOT_FOUND, TASK_NOT_FOUND (a blocker)
 */
export async function createTask(ctx: FsContext, team: string, draft: TaskDraft, options: CreateTaskOptions = {}): Promise<Transition<CreatedTask>> {
  checkIdempotencyKey(options.idempotencyKey);
  await readConfig(ctx, team);
  const key = options.idempotencyKey;
  return withList(ctx, team, async (list) => {
    const known = key === undefined ? undefined : await readTaskKey(ctx, team, key);
    if (known) {
      const there = await readTask(ctx, team, known.id);
      if (there) {
        if (known.state === 'reserved') await writeTaskKey(ctx, team, { ...known, state: 'created', task: there }, list);
        return { value: { task: there, replayed: true }, events: [] };
      }
      if (known.state === 'created' && known.task) return { value: { task: known.task, replayed: true }, events: [] };
    }
    const blockers = [...new Set(draft.blockedBy ?? [])];
    await requireDependencies(ctx, team, blockers);
    const id = known?.id ?? String(BigInt(await readHighWatermark(ctx, team)) + 1n);
    const task = draftTask(id, { ...draft, blockedBy: blockers });
    if (key !== undefined && !known) {
      await raiseHighWatermark(ctx, team, id, list);
      await writeTaskKey(ctx, team, { key, at: stampOf(team, options).at, id, state: 'reserved' }, list);
    }
    const events = await writeNewTask(ctx, team, task, list, options);
    if (key !== undefined) await writeTaskKey(ctx, team, { key, at: known?.at ?? stampOf(team, options).at, id, state: 'created', task }, list);
    for (const b of blockers) events.push(...(await changeTask(ctx, team, b, options, (t) => addTo(t.blocks, id, 'blocks'))).events);
    return { value: { task, replayed: false }, events };
  });
}

/** Adds `value` to `list` unless there; @returns `[field]` when it changed. */
function addTo(list: string[], value: string, field: string): string[] {
  if (list.includes(value)) return [];
  addUnique(list, value);
  return [field];
}

async function raiseHighWatermark(ctx: FsContext, team: string, id: string, list: HeldLock): Promise<void> {
  const mark = await highWatermark(ctx, team);
  if (mark < BigInt(id)) await writeTextFile(ctx.layout.highWatermarkPath(team), id, list, { recovery: { baseText: String(mark), merge: mergeHighWatermark } });
}

/**
 * Claims a task for `request.claimant` (owner + in_progress): by id under its task lock (and the
 * list lock with the busy check), or the first candidate (domain `claimCandidates`) under the list
 * lock. @returns undefined when no task is ready (claims without an id only)
 */
export async function claimTask(ctx: FsContext, team: string, request: ClaimRequest, op?: OpContext): Promise<Transition<Task | undefined>> {
  const { claimant } = request;
  // The claimant's declared capabilities (its member record; none for a member mailroom does not run).
  // Read before the task lock: a record changes only when its member joins or leaves.
  const capabilities = capabilitiesOf(await readMemberRecord(ctx, team, claimant).catch(() => undefined));
  if (request.id !== undefined) {
    const id = request.id;
    if (!request.busyCheck) return claimById(ctx, team, id, claimant, op, capabilities);
    return withList(ctx, team, async () => {
      const busy = busyRefusal(team, await listTasks(ctx, team), claimant, id);
      if (busy) throw busy;
      return claimById(ctx, team, id, claimant, op, capabilities);
    });
  }
  if (!request.busyCheck && !request.preferAssigned) return withList(ctx, team, () => claimNextIndexed(ctx, team, claimant, op, capabilities));
  return withList(ctx, team, async () => {
    const tasks = await listTasks(ctx, team);
    if (request.busyCheck) {
      const busy = busyRefusal(team, tasks, claimant);
      if (busy) throw busy;
    }
    for (const candidate of claimCandidates(tasks, claimant, request.preferAssigned === true, capabilities)) {
      try {
        return await claimById(ctx, team, candidate.id, claimant, op, capabilities, tasks);
      } catch (err) {
        if (!(err instanceof MailroomError) || err.code === 'LOCK_TIMEOUT') throw err;
      }
    }
    return { value: undefined, events: [] };
  });
}

/**
 * `claim --next` through the list's index (./task-index.ts; the caller holds the list lock): the
 * lowest-id ready task the claimant may take, each candidate and its blockers checked against their
 * files first, the candidate re-read and decided under its own lock as any claim. A candidate the
 * claim refuses (its file changed in between) is skipped for the next one.
 */
async function claimNextIndexed(ctx: FsContext, team: string, claimant: string, op: OpContext | undefined, capabilities: readonly string[]): Promise<Transition<Task | undefined>> {
  const refused = new Set<string>();
  const read = (id: string) => readTask(ctx, team, id);
  for (;;) {
    // The index lock is the innermost: the walk holds it, the claim (under the task's lock) does not.
    const pick = await withTaskIndex(ctx, team, async (index) => {
      for await (const found of readyTasks(index, () => fileIds(ctx, team), read)) {
        if (!refused.has(found.task.id) && missingCapabilities(taskRequires(found.task), capabilities).length === 0) return found;
      }
      return undefined;
    });
    if (!pick) return { value: undefined, events: [] };
    try {
      return await claimById(ctx, team, pick.task.id, claimant, op, capabilities, [...pick.board.values()]);
    } catch (err) {
      if (!(err instanceof MailroomError) || err.code === 'LOCK_TIMEOUT') throw err;
      refused.add(pick.task.id);
    }
  }
}

/**
 * Claims task `id`. `listed` is the board the caller already read under the list lock (claim
 * --next): it is used for the blockers instead of reading every task file a second time (the
 * task itself is re-read under its own lock either way; a blocker may change after either read).
 */
async function claimById(ctx: FsContext, team: string, id: string, claimant: string, op: OpContext | undefined, capabilities: readonly string[], listed?: readonly Task[]): Promise<Transition<Task | undefined>> {
  if (!(await readTask(ctx, team, id, { strict: true }))) throw taskNotFound(team, id);
  const board = indexTasks(listed ? listed.map((t) => ({ ...t })) : await listTasks(ctx, team));
  const r = await changeTask(ctx, team, id, op, (t) => {
    board.set(t.id, t);
    const refused = claimRefusal(team, t, claimant, board, capabilities);
    if (refused) throw refused;
    const before = { owner: t.owner, status: t.status, fence: fenceOf(t) };
    applyClaim(t, claimant, Date.now()); // the files store's clock is its machine's (docs/leases.md)
    return changedKeys(before, { owner: t.owner, status: t.status, fence: fenceOf(t) }).map((k) => (k === 'fence' ? FENCE_KEY : k));
  });
  return { value: r.task, events: r.events };
}

/**
 * Changes a task's fields under its lock (domain `applyTaskChange`: TASK_BLOCKED, the actor as
 * owner on start, TASK_CONFLICT). The board is read for blockers only when the status changes.
 */
export async function patchTask(ctx: FsContext, team: string, id: string, patch: TaskPatch, op?: OpContext): Promise<Transition<PatchedTask>> {
  if (!(await readTask(ctx, team, id, { strict: true }))) throw taskNotFound(team, id); // before reading the board (which warns about every broken file)
  const board = patch.status === 'in_progress' || patch.status === 'completed' ? indexTasks(await listTasks(ctx, team)) : new Map<string, Task>();
  const r = await changeTask(ctx, team, id, op, async (t) => applyTaskChange(team, t, patch, op?.actor, board, Date.now(), await rosterIfReopened(ctx, team, t, patch)));
  return { value: { task: r.task, previous: r.previous }, events: r.events };
}

/**
 * Who is a member (a name or an agentId of config.json), read under the task's lock, when `patch`
 * could reopen `task` for an owner who left (domain reopensForDeparted); else undefined, nothing
 * read. Read under the lock: a member's removal unassigns its open tasks under their locks after
 * the config changed, so a reopening that saw the member still there is mostly unassigned right
 * after it — unless the removal listed the tasks before this write (its listing takes no lock):
 * doctor's `orphan-owner` finds that one (docs/decisions.md, session 21).
 */
async function rosterIfReopened(ctx: FsContext, team: string, task: Task, patch: TaskPatch): Promise<((name: string) => boolean) | undefined> {
  if (!reopensForDeparted(task, patch, () => false)) return undefined;
  const config = await readConfig(ctx, team);
  const names = new Set(config.members.flatMap((m) => [m.name, m.agentId]));
  return (name) => names.has(name);
}

/** Adds dependencies on both tasks of each edge, under the list lock; a cycle is refused before anything changes. */
export async function linkTasks(ctx: FsContext, team: string, edges: readonly Edge[], op?: OpContext): Promise<Transition<Task[]>> {
  if (edges.length === 0) return { value: [], events: [] };
  return withList(ctx, team, async () => {
    await requireDependencies(ctx, team, [...new Set(edges.flatMap((e) => [e.blocked, e.blocker]))]);
    assertNoCycles(team, edges, indexTasks(await listTasks(ctx, team)));
    return editEdges(ctx, team, edges, op, (t, e) => [...(t.id === e.blocked ? addTo(t.blockedBy, e.blocker, 'blockedBy') : []), ...(t.id === e.blocker ? addTo(t.blocks, e.blocked, 'blocks') : [])]);
  });
}

/** Removes dependencies from both tasks of each edge (absent edges, and an end that no longer exists, are ignored). @throws TASK_NOT_FOUND (neither end exists) */
export async function unlinkTasks(ctx: FsContext, team: string, edges: readonly Edge[], op?: OpContext): Promise<Transition<Task[]>> {
  if (edges.length === 0) return { value: [], events: [] };
  return withList(ctx, team, async () => {
    for (const e of edges) {
      if (!(await readTask(ctx, team, e.blocked)) && !(await readTask(ctx, team, e.blocker))) throw taskNotFound(team, e.blocked);
    }
    return editEdges(ctx, team, edges, op, (t, e) => [...(t.id === e.blocked ? drop(t.blockedBy, e.blocker, 'blockedBy') : []), ...(t.id === e.blocker ? drop(t.blocks, e.blocked, 'blocks') : [])]);
  });
}

/** Applies `edit` for every edge touching each existing task, one task lock at a time; @returns the changed tasks. */
async function editEdges(ctx: FsContext, team: string, edges: readonly Edge[], op: OpContext | undefined, edit: (t: Task, e: Edge) => string[]): Promise<Transition<Task[]>> {
  const ids = [...new Set(edges.flatMap((e) => [e.blocked, e.blocker]))].sort(compareTaskIds);
  const changed: Task[] = [];
  const events: TeamEventRecord[] = [];
  for (const id of ids) {
    if (!(await readTask(ctx, team, id))) continue;
    const r = await changeTask(ctx, team, id, op, (t) => [...new Set(edges.flatMap((e) => edit(t, e)))]);
    if (r.changed.length > 0) changed.push(r.task);
    events.push(...r.events);
  }
  return { value: changed, events };
}

function drop(list: string[], value: string, field: string): string[] {
  const i = list.indexOf(value);
  if (i < 0) return [];
  while (list.includes(value)) list.splice(list.indexOf(value), 1);
  return [field];
}

/**
 * Deletes a task under the list lock: raises `.highwatermark` to its id, removes the file, strips the
 * id from every other task. @throws TASK_NOT_FOUND
 */
export async function deleteTask(ctx: FsContext, team: string, id: string, op?: OpContext): Promise<Transition<Task>> {
  return withList(ctx, team, async (list) => {
    const task = await readTask(ctx, team, id, { strict: true });
    if (!task) throw taskNotFound(team, id);
    await raiseHighWatermark(ctx, team, id, list);
    await list.assertHeld(`deleting task #${id}`);
    await unlink(ctx.layout.taskPath(team, id)).catch((err: unknown) => {
      if (!isErrno(err, 'ENOENT')) throw err;
    });
    await noteTaskWritten(ctx, team, id, undefined);
    const events: TeamEventRecord[] = [taskEvent(stampOf(team, op), 'deleted', task)];
    await journal(ctx, team, events);
    for (const other of await listTasks(ctx, team)) {
      if (!other.blocks.includes(id) && !other.blockedBy.includes(id)) continue;
      events.push(...(await changeTask(ctx, team, other.id, op, (t) => [...drop(t.blocks, id, 'blocks'), ...drop(t.blockedBy, id, 'blockedBy')])).events);
    }
    return { value: task, events };
  });
}

/**
 * Writes `task` as it is under its id (a mirror: the bridge), under the list lock: a new file when
 * absent (the high-water mark raised to its id), else the task lock's read-modify-write replacing
 * every key. @throws TEAM_NOT_FOUND, FILE_CORRUPT (the stored file does not parse), INVALID_ARGUMENT
 */
export async function putTask(ctx: FsContext, team: string, task: Task, op?: PutTaskOptions): Promise<Transition<Task>> {
  const parsed = TaskSchema.safeParse(task);
  if (!parsed.success || !TASK_ID_PATTERN.test(task.id)) throw new MailroomError('INVALID_ARGUMENT', `Task ${JSON.stringify(task.id)} cannot be written to team "${team}": it is not a valid task (${parsed.success ? 'its id is not a task id' : parsed.error.message}).`);
  await readConfig(ctx, team);
  return withList(ctx, team, async (list) => {
    const read = await readTaskFile(ctx, team, task.id);
    if (read.state === 'invalid') throw read.error;
    // Creations hold the list lock (held here); updates the task lock (checked again inside it below).
    if (op?.expect !== undefined && (op.expect === null) !== (read.state === 'missing')) throw putConflict(team, task.id);
    await raiseHighWatermark(ctx, team, task.id, list);
    if (read.state === 'missing') return { value: canonicalTask(task), events: await writeNewTask(ctx, team, task, list, op) };
    const want = canonicalTask(structuredClone(task));
    const r = await changeTask(ctx, team, task.id, op, (t) => {
      if (op?.expect && changedKeys(t, canonicalTask(structuredClone(op.expect))).length > 0) throw putConflict(team, task.id);
      const changed = changedKeys(t, want);
      for (const k of changed) {
        if (k in want) (t as Record<string, unknown>)[k] = (want as Record<string, unknown>)[k];
        else delete (t as Record<string, unknown>)[k];
      }
      return changed;
    });
    return { value: r.task, events: r.events };
  });
}

function putConflict(team: string, id: string): MailroomError {
  return new MailroomError('TASK_CONFLICT', `Task #${id} of team "${team}" changed since it was read: nothing was written; read it again and retry.`);
}

/**
 * Puts the tasks of any of `owners` with one of `statuses` (default: not completed) back to pending
 * with no owner, under the list lock. With `ifSilent`, each task's change re-checks, under its lock,
 * that the member's claim file has no mtime (beat) after `ifSilent.lastBeatAt`.
 */
export async function unassignTasks(ctx: FsContext, team: string, owners: readonly string[], op?: UnassignOptions): Promise<Transition<Task[]>> {
  const statuses = op?.statuses ?? ['pending', 'in_progress'];
  const silent = op?.ifSilent;
  const stillSilent = () => !silent || !(claimBeatAt(ctx.layout.readerClaimPath(team, silent.member)) > silent.lastBeatAt);
  const matches = (t: Task) => t.owner !== undefined && owners.includes(t.owner) && statuses.includes(t.status) && stillSilent();
  const candidates = (await listTasks(ctx, team)).filter(matches);
  if (candidates.length === 0) return { value: [], events: [] };
  return withList(ctx, team, async () => {
    const done: Task[] = [];
    const events: TeamEventRecord[] = [];
    for (const c of candidates) {
      const r = await changeTask(ctx, team, c.id, op, (t) => {
        if (!matches(t)) return [];
        const before = { owner: t.owner, status: t.status };
        delete (t as { owner?: string }).owner;
        t.status = 'pending';
        return changedKeys(before, { owner: undefined, status: t.status });
      }).catch((err: unknown) => {
        if (err instanceof MailroomError && err.code === 'TASK_NOT_FOUND') return undefined;
        throw err;
      });
      if (r && r.changed.length > 0) {
        done.push(r.task);
        events.push(...r.events);
      }
    }
    return { value: done, events };
  });
}

/** The mtime (last beat) of a reader claim file; -Infinity when there is none. */
function claimBeatAt(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Number.NEGATIVE_INFINITY;
  }
}
