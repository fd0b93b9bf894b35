/**
 * The task board (docs/bridge.md "Tasks"): the shared store is the truth. Each task's `base` is its
 * version last seen equal on both sides (kept in the bridge state). Per task:
 *
 * - changed in Redis only (or new there): written to the local file as it is (`putTask`);
 * - changed locally only (Claude Code's TaskUpdate): applied to Redis as a compare-and-set —
 *   `patchTask` with `expect: { status, owner }` of the base, then the link changes — and the
 *   result written back locally;
 * - created locally: created in Redis with the next Redis id (ids are Redis's); when that id is not
 *   the local one, the task moves to it locally and the local id gets Redis's task of that id;
 * - changed on both sides, or a compare-and-set refused (TASK_CONFLICT, TASK_BLOCKED): **Redis
 *   wins** — its version is written locally, and the refused local version is journalled in the
 *   local journal (an observed `task updated` event whose `bridgeConflict` holds it);
 * - deleted locally while unchanged in Redis: deleted in Redis (a local team removed altogether is
 *   never a deletion: the bridge does not sync a team it cannot read).
 */
import { changedKeys } from '../domain/task-patch.js';
import { taskEvent } from '../domain/events.js';
import { MailroomError } from '../errors.js';
import type { Task } from '../protocol/task.js';
import type { TaskEdge, TaskPatch, TeamStore } from '../store/team-store.js';

/** The two boards. */
export interface BoardSides {
  team: string;
  local: TeamStore;
  remote: TeamStore;
  /** Names this machine's board in the idempotency key of a task it creates in Redis (default: the local store's location). */
  origin?: string | undefined;
}

/** What a board sync did. */
export interface BoardSyncResult {
  /** The new bases, by id. */
  base: Record<string, Task>;
  toLocal: number;
  toRemote: number;
  /** Ids whose local edit lost to Redis. */
  conflicts: string[];
  /** A local file changed while it was being synced (its write was refused): sync again. */
  again: boolean;
}

const CTX = { actor: 'mailroom-bridge' };

/** Syncs the boards (see the module comment). */
export async function syncTasks(sides: BoardSides, base: Readonly<Record<string, Task>>): Promise<BoardSyncResult> {
  const { team, local, remote } = sides;
  const [ls, rs] = await Promise.all([local.listTasks(team), remote.listTasks(team)]);
  const L = new Map(ls.map((t) => [t.id, t]));
  const R = new Map(rs.map((t) => [t.id, t]));
  const out: BoardSyncResult = { base: {}, toLocal: 0, toRemote: 0, conflicts: [], again: false };
  if (ls.length === 0 && Object.keys(base).length > 0 && (await local.readHighWatermark(team)) === '0') {
    // The local task list is gone as a whole (Claude Code 2.1.109 removes tasks/<team>/ at exit;
    // a deletion by Claude Code keeps the directory and raises .highwatermark): not a deletion of
    // every task. Nothing is synced; the bases stay for a list that comes back.
    return { ...out, base: { ...base } };
  }
  const ids = [...new Set([...L.keys(), ...R.keys(), ...Object.keys(base)])].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0));
  const moved = new Set<string>();
  for (const id of ids) {
    if (moved.has(id)) continue;
    const b = base[id];
    const l = L.get(id);
    const r = R.get(id);
    try {
      await syncOne(sides, { id, b, l, r, L }, out, moved);
    } catch (err) {
      // Claude Code wrote the local file meanwhile (a compare-and-set on it refused): keep the old
      // base, so the next step sees that write as a local change.
      if (!(err instanceof MailroomError && (err.code === 'TASK_CONFLICT' || err.code === 'TASK_NOT_FOUND'))) throw err;
      if (b) out.base[id] = b;
      out.again = true;
    }
  }
  return out;
}

async function syncOne(sides: BoardSides, c: { id: string; b: Task | undefined; l: Task | undefined; r: Task | undefined; L: Map<string, Task> }, out: BoardSyncResult, moved: Set<string>): Promise<void> {
  const { team, local } = sides;
  const { id, b, l, r, L } = c;
  const put = (task: Task, expect: Task | undefined) => local.putTask(team, task, { ...CTX, expect: expect ?? null });
  {
    if (same(l, r)) {
      if (r) out.base[id] = r;
      return;
    }
    const localChanged = !same(l, b);
    const remoteChanged = !same(r, b);
    if (!localChanged) {
      await toLocal(sides, id, r, l);
      if (r) out.base[id] = r;
      out.toLocal++;
      return;
    }
    if (l && !b && !(r && r.subject === l.subject && r.description === l.description)) {
      // Created locally (a Redis task of the id, if any, is another task: it keeps the id).
      const created = await createRemote(sides, l);
      out.toRemote++;
      moved.add(created.id);
      if (created.id === id) {
        await put(created, l);
        out.base[id] = created;
        return;
      }
      // The new Redis id first. A local file there is another task Claude Code created meanwhile
      // (Redis just allocated that id, so no synced task had it): move it to Redis first.
      let there = L.get(created.id);
      if (there && !same(there, created)) {
        await syncOne(sides, { id: created.id, b: undefined, l: there, r: undefined, L }, out, moved);
        there = undefined;
      }
      await put(created, there);
      out.base[created.id] = created;
      await toLocal(sides, id, r, l);
      if (r) out.base[id] = r;
      return;
    }
    if (!remoteChanged && b && r) {
      if (!l && !(await localListStands(sides))) return; // the list is being removed (Claude Code's exit)
      const applied = l ? await applyEdit(sides, b, l) : await deleteRemote(sides, id);
      if (applied !== 'conflict') {
        out.toRemote++;
        if (applied) {
          if (!same(l, applied)) await put(applied, l);
          out.base[id] = applied;
        }
        return;
      }
    }
    // Both changed, or the compare-and-set was refused: Redis wins, the local version is journalled.
    const truth = (await sides.remote.readTask(team, id)) ?? undefined;
    await toLocal(sides, id, truth, l);
    if (truth) out.base[id] = truth;
    if (l) await journalConflict(sides, l, truth);
    out.conflicts.push(id);
  }
}

function same(a: Task | undefined, b: Task | undefined): boolean {
  if (!a || !b) return a === b;
  return changedKeys(a, b).length === 0;
}

/** Writes Redis's version (`task`; none: deleted) to the local file, which must still be `seen`. @throws TASK_CONFLICT (it changed) */
async function toLocal(sides: BoardSides, id: string, task: Task | undefined, seen: Task | undefined): Promise<void> {
  if (task) await sides.local.putTask(sides.team, task, { ...CTX, expect: seen ?? null });
  else if (seen) {
    const now = await sides.local.readTask(sides.team, id);
    if (!same(now ?? undefined, seen)) throw new MailroomError('TASK_CONFLICT', `Task #${id} of team "${sides.team}" changed since it was read: not deleted.`);
    await sides.local.deleteTask(sides.team, id, CTX);
  }
}

/** A task Claude Code created locally, created in Redis (next Redis id), its status and owner as given. */
async function createRemote(sides: BoardSides, l: Task): Promise<Task> {
  const { team, remote } = sides;
  const existing = new Set((await remote.listTasks(team)).map((t) => t.id));
  const blockedBy = l.blockedBy.filter((x) => existing.has(x));
  const draft = { subject: l.subject, description: l.description, activeForm: l.activeForm, owner: l.owner, blockedBy, metadata: l.metadata };
  // Keyed by this board and the local id (never reused locally): a retry after a crash or a refused
  // local write gets the task created the first time, not a second one.
  const key = `mailroom-bridge:${sides.origin ?? sides.local.location}:${team}:${l.id}:${l.subject}`;
  const made = (await remote.createTask(team, draft, { ...CTX, idempotencyKey: key })).value;
  let task = made.task;
  if (made.replayed) return (await remote.readTask(team, task.id)) ?? task;
  if (l.status !== 'pending') {
    try {
      task = (await remote.patchTask(team, task.id, { status: l.status }, CTX)).value.task;
    } catch (err) {
      if (!(err instanceof MailroomError && err.code === 'TASK_BLOCKED')) throw err;
    }
  }
  return task;
}

/** A local edit of `b` into `l`, applied to Redis as compare-and-set. @returns Redis's task after it, or 'conflict' */
async function applyEdit(sides: BoardSides, b: Task, l: Task): Promise<Task | 'conflict'> {
  const { team, remote } = sides;
  const patch: TaskPatch = { expect: { status: b.status, owner: b.owner ?? null } };
  if (l.subject !== b.subject) patch.subject = l.subject;
  if (l.description !== b.description) patch.description = l.description;
  if (l.activeForm !== b.activeForm) patch.activeForm = l.activeForm ?? null;
  if (l.owner !== b.owner) patch.owner = l.owner ?? null;
  if (l.status !== b.status) patch.status = l.status;
  const meta = metadataPatch(b.metadata, l.metadata);
  if (meta) patch.metadata = meta;
  let after: Task;
  try {
    after = (await remote.patchTask(team, l.id, patch, CTX)).value.task;
  } catch (err) {
    if (err instanceof MailroomError && ['TASK_CONFLICT', 'TASK_BLOCKED', 'TASK_NOT_FOUND'].includes(err.code)) return 'conflict';
    throw err;
  }
  const added: TaskEdge[] = l.blockedBy.filter((x) => !b.blockedBy.includes(x)).map((blocker) => ({ blocked: l.id, blocker }));
  const removed: TaskEdge[] = b.blockedBy.filter((x) => !l.blockedBy.includes(x)).map((blocker) => ({ blocked: l.id, blocker }));
  try {
    if (added.length > 0) await remote.linkTasks(team, added, CTX);
    if (removed.length > 0) await remote.unlinkTasks(team, removed, CTX);
  } catch (err) {
    if (!(err instanceof MailroomError)) throw err; // a refused link (cycle, missing task): Redis's links stand
  }
  return (await remote.readTask(team, l.id)) ?? after;
}

function metadataPatch(before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const patch: Record<string, unknown> = {};
  for (const k of new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])) {
    const a = before?.[k];
    const b = after?.[k];
    if (JSON.stringify(a) !== JSON.stringify(b)) patch[k] = b === undefined ? null : b;
  }
  return Object.keys(patch).length > 0 ? patch : undefined;
}

/**
 * Whether the local team and task list still stand, checked after the listing that missed a task:
 * Claude Code removes `teams/<team>` before `tasks/<team>` (its team deletion and clean-up at exit),
 * so a task missing because the whole list is going is seen with the team already gone.
 */
async function localListStands(sides: BoardSides): Promise<boolean> {
  try {
    await sides.local.readConfig(sides.team);
  } catch (err) {
    if (err instanceof MailroomError && err.code === 'TEAM_NOT_FOUND') return false;
    throw err;
  }
  return (await sides.local.readHighWatermark(sides.team)) !== '0';
}

async function deleteRemote(sides: BoardSides, id: string): Promise<undefined> {
  try {
    await sides.remote.deleteTask(sides.team, id, CTX);
  } catch (err) {
    if (!(err instanceof MailroomError && err.code === 'TASK_NOT_FOUND')) throw err;
  }
  return undefined;
}

/** Journals (locally) the local version that lost to Redis, for `mailroom log`. */
async function journalConflict(sides: BoardSides, refused: Task, kept: Task | undefined): Promise<void> {
  const event = { ...taskEvent({ team: sides.team, at: Date.now(), source: 'observed', actor: 'mailroom-bridge' }, kept ? 'updated' : 'deleted', kept ?? refused), bridgeConflict: { rule: 'shared store wins', refused } };
  await sides.local.recordObserved(sides.team, [event]);
}
