/**
 * Each task's claim history, folded from the team's journal (docs/journal.md): who held the task,
 * with which fencing token (src/domain/task-fence.ts), from when, and how each claim ended. The
 * journal's `task` events carry the task after every change and who made it, so the history is
 * the sequence of owner changes among them. Pure and incremental: feed it events in journal order
 * ({@link ClaimHistory.apply}); a journal that starts late (trimmed) starts the history there.
 *
 * How a claim ends, read off the change that ended it:
 * - `completed`: the task was completed while it was held;
 * - `released`: its owner cleared the owner itself;
 * - `swept`: someone else put it back to `pending` with no owner — the store's unassign step, which
 *   a sweep of a dead owner (actor: the sweeper) and `team stop` use;
 * - `left`: its owner left the team (shutdown), which unassigns in the same step;
 * - `unassigned`: someone else cleared the owner, leaving the status;
 * - `reassigned`: the task got another owner;
 * - `reclaimed`: the same owner claimed it again (a new fencing token, e.g. a new process);
 * - `deleted`: the task was deleted.
 */
import type { TeamEventRecord, TaskEvent } from '../../protocol/events.js';
import { isUnowned, type Task } from '../../protocol/task.js';
import { fenceOf } from '../../domain/task-fence.js';

/** How a claim ended (see the module comment). */
export type ClaimEnd = 'completed' | 'released' | 'swept' | 'left' | 'unassigned' | 'reassigned' | 'reclaimed' | 'deleted';

/** One claim of a task. */
export interface ClaimRecord {
  /** The member that held it. */
  owner: string;
  /** The fencing token issued with this claim; undefined when it was claimed outside mailroom (Claude Code's own TaskUpdate). */
  token?: number | undefined;
  /** ISO-8601 time of the change that gave it this owner. */
  at: string;
  /** Who made that change (the owner itself: a claim; someone else: an assignment), when journalled. */
  by?: string | undefined;
  /** Set once the claim ended. */
  ended?: { how: ClaimEnd; at: string; by?: string | undefined } | undefined;
}

/** The claim histories of a team's tasks, built from its journal events. */
export class ClaimHistory {
  private readonly claims = new Map<string, ClaimRecord[]>();
  private readonly last = new Map<string, Task>();
  private readonly leftAt = new Map<string, string>();

  /** Folds `events` (journal order) in; only `task` and member `left` events matter. */
  apply(events: readonly TeamEventRecord[]): void {
    for (const e of events) {
      if (e.kind === 'task') this.onTask(e);
      else if (e.kind === 'member' && e.action === 'left') this.onLeft(e.name, e.at);
    }
  }

  /** The claims of task `id`, oldest first (a copy). */
  of(id: string): ClaimRecord[] {
    return (this.claims.get(id) ?? []).map((c) => ({ ...c, ...(c.ended ? { ended: { ...c.ended } } : {}) }));
  }

  private onTask(e: TaskEvent): void {
    const id = e.task.id;
    const prev = this.last.get(id);
    const cur = e.task;
    const list = this.claims.get(id) ?? [];
    this.claims.set(id, list);
    const open = list.at(-1)?.ended ? undefined : list.at(-1);
    if (e.action === 'deleted') {
      if (open) open.ended = { how: 'deleted', at: e.at, by: e.actor };
      this.last.delete(id);
      return;
    }
    this.last.set(id, cur);
    const prevOwner = prev && !isUnowned(prev) ? prev.owner : undefined;
    const curOwner = isUnowned(cur) ? undefined : cur.owner;
    const newToken = fenceOf(cur) > (prev ? fenceOf(prev) : 0);
    let holding = open;
    if (open && curOwner !== open.owner) {
      open.ended = { how: this.endOf(open, prev, cur, e), at: e.at, by: e.actor };
      holding = undefined;
    } else if (open && newToken) {
      open.ended = { how: 'reclaimed', at: e.at, by: e.actor };
      holding = undefined;
    }
    const starts = curOwner !== undefined && (curOwner !== prevOwner || newToken || (prev === undefined && list.length === 0));
    if (starts && !holding && curOwner !== undefined) {
      holding = { owner: curOwner, ...(newToken ? { token: fenceOf(cur) } : {}), at: e.at, by: e.actor };
      list.push(holding);
    }
    if (holding && cur.status === 'completed' && prev?.status !== 'completed') holding.ended = { how: 'completed', at: e.at, by: e.actor };
  }

  private endOf(open: ClaimRecord, prev: Task | undefined, cur: Task, e: TaskEvent): ClaimEnd {
    if (!isUnowned(cur)) return 'reassigned';
    if (e.actor !== undefined && e.actor === open.owner) return 'released';
    if (this.leftAt.get(open.owner) === e.at) return 'left';
    return prev?.status === 'in_progress' && cur.status === 'pending' ? 'swept' : 'unassigned';
  }

  /** A member left: claims its leaving ended in the same step read `left`. */
  private onLeft(name: string, at: string): void {
    this.leftAt.set(name, at);
    for (const list of this.claims.values()) {
      const c = list.at(-1);
      if (c?.owner === name && c.ended && c.ended.at === at && (c.ended.how === 'swept' || c.ended.how === 'unassigned')) c.ended.how = 'left';
    }
  }
}
