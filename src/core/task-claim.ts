/**
 * Claiming tasks (reference §5 "Claim", ../shared/cases/06). A claim sets `owner` to the claimant
 * and `status` to in_progress under the task lock, or fails with one of Claude Code's reasons:
 * already_claimed (TASK_ALREADY_CLAIMED), already_resolved (TASK_ALREADY_RESOLVED), blocked
 * (TASK_BLOCKED), agent_busy (AGENT_BUSY, busy-check variant, under the list lock).
 */
import { MailroomError } from '../errors.js';
import type { Task } from '../protocol/task.js';
import { isUnowned } from '../protocol/task.js';
import type { Store } from '../store/store.js';
import { storeOf, type TeamOptions } from './context.js';
import { requireMember } from './members.js';
import { assertTaskId, indexTasks, isReady, openBlockers } from './task-rules.js';
import { recordTasks } from './journal.js';

/** Claude Code's claim refusal reasons. */
export type ClaimRefusal = 'already_claimed' | 'already_resolved' | 'blocked' | 'agent_busy';

/** Input of {@link claimTask} and {@link claimNextTask}. */
export interface ClaimOptions extends TeamOptions {
  /** The claimant's member name. */
  as: string;
  /** Refuse (agent_busy) when the claimant already owns a task that is not completed. */
  busyCheck?: boolean;
}

/**
 * Claims one task.
 * @returns the task after the claim.
 * @throws INVALID_ARGUMENT (malformed id), TASK_NOT_FOUND, TASK_ALREADY_CLAIMED, TASK_ALREADY_RESOLVED, TASK_BLOCKED, AGENT_BUSY (each with `details.reason`)
 */
export async function claimTask(options: ClaimOptions & { id: string }): Promise<Task> {
  assertTaskId(options.id);
  const store = storeOf(options.root);
  requireMember(await store.readConfig(options.team), options.as, 'claimant');
  if (!options.busyCheck) return claimUnderTaskLock(store, options, options.id);
  return store.withTaskList(options.team, async () => {
    await assertNotBusy(store, options, options.id);
    return claimUnderTaskLock(store, options, options.id);
  });
}

/**
 * Claims the lowest-id ready task (pending, unowned, unblocked) under the list lock, so no task is
 * handed to two claimants. @returns the claimed task, or undefined when none is ready.
 * @throws AGENT_BUSY with busyCheck
 */
export async function claimNextTask(options: ClaimOptions): Promise<Task | undefined> {
  const store = storeOf(options.root);
  requireMember(await store.readConfig(options.team), options.as, 'claimant');
  return store.withTaskList(options.team, async () => {
    if (options.busyCheck) await assertNotBusy(store, options);
    const tasks = await store.listTasks(options.team);
    const byId = indexTasks(tasks);
    for (const candidate of tasks.filter((t) => isReady(t, byId))) {
      try {
        return await claimUnderTaskLock(store, options, candidate.id);
      } catch (err) {
        if (!(err instanceof MailroomError) || err.code === 'LOCK_TIMEOUT') throw err;
      }
    }
    return undefined;
  });
}

async function claimUnderTaskLock(store: Store, o: ClaimOptions, id: string): Promise<Task> {
  const task = await store.updateTask(o.team, id, async (t) => {
    if (!isUnowned(t) && t.owner !== o.as) throw refusal('already_claimed', o, t, `Task #${t.id} is already claimed by ${t.owner}.`);
    if (t.status === 'completed') throw refusal('already_resolved', o, t, `Task #${t.id} is already completed.`);
    const open = openBlockers(t, indexTasks(await store.listTasks(o.team)));
    if (open.length > 0) {
      throw refusal('blocked', o, t, `Task #${t.id} is blocked by ${open.map((b) => `#${b}`).join(', ')}, not completed yet.`, { blockedBy: open });
    }
    t.owner = o.as;
    t.status = 'in_progress';
    return t;
  });
  await recordTasks({ ...o, root: store }, 'updated', [task]);
  return task;
}

async function assertNotBusy(store: Store, o: ClaimOptions, except?: string): Promise<void> {
  const busy = (await store.listTasks(o.team)).filter((t) => t.owner === o.as && t.status !== 'completed' && t.id !== except);
  if (busy.length === 0) return;
  const ids = busy.map((t) => `#${t.id}`).join(', ');
  throw new MailroomError('AGENT_BUSY', `${o.as} already owns open task ${ids}; finish it before claiming another (reason: agent_busy).`, {
    details: { reason: 'agent_busy', team: o.team, as: o.as, owned: busy.map((t) => t.id) },
  });
}

const CODES = {
  already_claimed: 'TASK_ALREADY_CLAIMED',
  already_resolved: 'TASK_ALREADY_RESOLVED',
  blocked: 'TASK_BLOCKED',
  agent_busy: 'AGENT_BUSY',
} as const;

function refusal(reason: ClaimRefusal, o: ClaimOptions, t: Task, message: string, extra: Record<string, unknown> = {}): MailroomError {
  return new MailroomError(CODES[reason], `${message} (reason: ${reason})`, {
    details: { reason, team: o.team, id: t.id, as: o.as, owner: t.owner, ...extra },
  });
}
