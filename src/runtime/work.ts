/**
 * What wakes a teammate: unread mail, or (for teammates that take tasks) a task that became ready
 * for it — pending, unblocked, and unowned or already assigned to it. A ready task is offered once;
 * it is offered again only after it stopped being ready (e.g. it went back to pending on a
 * shutdown). A teammate that left the roster, or whose team is gone, stops.
 */
import { isMailroomError } from '../errors.js';
import { findMember } from '../domain/roster.js';
import { indexTasks, isInternal, openBlockers } from '../domain/task-board.js';
import { isUnowned, type Task } from '../protocol/task.js';
import type { TeamStore } from '../store/team-store.js';
import type { Mailbox } from './delivery/mailbox.js';
import type { HeldClaims } from '../core/tasks/fencing.js';

/** A reason to run a turn, or to stop. */
export type Work = { kind: 'messages' } | { kind: 'task'; task: Task } | { kind: 'removed' };

/** Finds work for one teammate; keeps the set of tasks already offered. */
export class WorkFinder {
  private offered = new Set<string>();

  constructor(
    private readonly store: TeamStore,
    private readonly team: string,
    private readonly name: string,
    private readonly mailbox: Mailbox,
    private readonly takesTasks: boolean,
    /** This process's claims: an own in_progress task it holds no token for is an earlier process's (resume). */
    private readonly claims?: HeldClaims,
  ) {}

  /**
   * The next work, or undefined when there is none. With `inboxOnly` (only this member's inbox
   * changed since the last look) the roster and the board are not re-read, and the unread mail is
   * taken at once for the turn ({@link Mailbox.prefetch}) instead of being read first and taken after.
   */
  async find(reason: { inboxOnly?: boolean } = {}): Promise<Work | undefined> {
    if (reason.inboxOnly) return (await this.mailbox.prefetch()) ? { kind: 'messages' } : undefined;
    if (!(await this.isMember())) return { kind: 'removed' };
    if (await this.mailbox.hasUnread()) return { kind: 'messages' };
    if (!this.takesTasks) return undefined;
    const tasks = await this.store.listTasks(this.team);
    const resumed = this.resumedTask(tasks);
    if (resumed) return { kind: 'task', task: resumed };
    const task = this.nextOffer(tasks);
    return task ? { kind: 'task', task } : undefined;
  }

  /**
   * Its own task first (issue 23 item 1): a task in_progress under this member's name that this
   * process never claimed was left by an earlier process of the member (killed, then `team resume`).
   * Offered once, before any ready task.
   */
  private resumedTask(tasks: readonly Task[]): Task | undefined {
    if (!this.claims) return undefined;
    const own = tasks.find((t) => t.status === 'in_progress' && t.owner === this.name && !isInternal(t) && this.claims!.tokenOf(t.id) === undefined && !this.resumed.has(t.id));
    if (own) this.resumed.add(own.id);
    return own;
  }

  private readonly resumed = new Set<string>();

  /** The opening note of a turn started for a ready task (or for its own task left in progress). */
  static note(task: Task, name: string): string {
    if (task.status === 'in_progress' && task.owner === name) {
      return (
        `Task #${task.id} "${task.subject}" is yours and was in progress when your earlier process stopped. ` +
        'Carry it on: claim it again with TaskClaim (a new fencing token) and finish it — or release it with TaskUpdate (owner "", status pending) and tell the lead why.'
      );
    }
    const whose = task.owner === name ? 'is assigned to you and ready' : 'is ready: pending, unowned and unblocked';
    return `Task #${task.id} "${task.subject}" ${whose}. Claim it with TaskClaim and do it, or end your turn if it is not for you.`;
  }

  private nextOffer(tasks: Task[]): Task | undefined {
    const byId = indexTasks(tasks);
    const ready = tasks.filter((t) => this.isReadyForMe(t, byId));
    this.offered = new Set([...this.offered].filter((id) => ready.some((t) => t.id === id)));
    const fresh = ready.find((t) => !this.offered.has(t.id));
    if (fresh) for (const t of ready) this.offered.add(t.id);
    return fresh;
  }

  private isReadyForMe(t: Task, byId: ReadonlyMap<string, Task>): boolean {
    const mine = isUnowned(t) || t.owner === this.name;
    return t.status === 'pending' && mine && !isInternal(t) && openBlockers(t, byId).length === 0;
  }

  private async isMember(): Promise<boolean> {
    try {
      return findMember(await this.store.readConfig(this.team), this.name) !== undefined;
    } catch (err) {
      if (isMailroomError(err, 'TEAM_NOT_FOUND')) return false;
      throw err;
    }
  }
}
