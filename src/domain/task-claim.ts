/**
 * The claim decision (reference §5 "Claim", ../shared/cases/06): whether a claimant may take a task,
 * with Claude Code's refusal reasons and mailroom's codes — already_claimed (TASK_ALREADY_CLAIMED),
 * already_resolved (TASK_ALREADY_RESOLVED), blocked (TASK_BLOCKED), agent_busy (AGENT_BUSY), and
 * mailroom's missing_capability (MISSING_CAPABILITY: the task's `metadata.requires` names a
 * capability the claimant's member record does not declare, ./capabilities.ts) — and which task a
 * claim without an id takes. Pure: a store backend applies it inside its transition,
 * under whatever makes the transition atomic (locks, a Lua script).
 */
import { MailroomError } from '../errors.js';
import { isUnowned, type Task } from '../protocol/task.js';
import { missingCapabilities, taskRequires } from './capabilities.js';
import { indexTasks, isInternal, isReady, openBlockers } from './task-board.js';
import { issueFence } from './task-fence.js';

/** Claude Code's claim refusal reasons, and mailroom's `missing_capability`. */
export type ClaimRefusal = 'already_claimed' | 'already_resolved' | 'blocked' | 'agent_busy' | 'missing_capability';

const CODES = {
  already_claimed: 'TASK_ALREADY_CLAIMED',
  already_resolved: 'TASK_ALREADY_RESOLVED',
  blocked: 'TASK_BLOCKED',
  agent_busy: 'AGENT_BUSY',
  missing_capability: 'MISSING_CAPABILITY',
} as const;

function refusal(reason: ClaimRefusal, team: string, claimant: string, t: Task, message: string, extra: Record<string, unknown> = {}): MailroomError {
  return new MailroomError(CODES[reason], `${message} (reason: ${reason})`, {
    details: { reason, team, id: t.id, as: claimant, owner: t.owner, ...extra },
  });
}

/**
 * Why `claimant` may not claim `task` now, or undefined when it may (its own task is claimable
 * again). `byId` is the board, for the blockers; `capabilities` the claimant's declared ones
 * (checked last, after Claude Code's reasons).
 */
export function claimRefusal(team: string, task: Task, claimant: string, byId: ReadonlyMap<string, Task>, capabilities: readonly string[] = []): MailroomError | undefined {
  if (!isUnowned(task) && task.owner !== claimant) return alreadyClaimed(team, task, claimant);
  if (task.status === 'completed') return alreadyResolved(team, task, claimant);
  const open = openBlockers(task, byId);
  if (open.length > 0) return claimBlocked(team, task, claimant, open);
  return capabilityRefusal(team, task, claimant, capabilities);
}

/**
 * TASK_ALREADY_CLAIMED (reason already_claimed): `task` is owned by someone other than `claimant`.
 * Claude Code checks the owner before the status (reference §5), so a completed task of another
 * owner keeps this reason and code; its message says the task is completed, and by whom (a new
 * user read "already claimed by carol" as carol still working on it).
 */
export function alreadyClaimed(team: string, task: Task, claimant: string): MailroomError {
  const message = task.status === 'completed' ? `Task #${task.id} is already completed (by ${task.owner}): there is nothing left to claim.` : `Task #${task.id} is already claimed by ${task.owner}.`;
  return refusal('already_claimed', team, claimant, task, message, task.status === 'completed' ? { status: 'completed' } : {});
}

/** TASK_ALREADY_RESOLVED (reason already_resolved): `task` is completed. */
export function alreadyResolved(team: string, task: Task, claimant: string): MailroomError {
  return refusal('already_resolved', team, claimant, task, `Task #${task.id} is already completed.`);
}

/** TASK_BLOCKED (reason blocked): `task` waits on the `open` blockers. */
export function claimBlocked(team: string, task: Task, claimant: string, open: readonly string[]): MailroomError {
  return refusal('blocked', team, claimant, task, `Task #${task.id} is blocked by ${open.map((b) => `#${b}`).join(', ')}, not completed yet.`, { blockedBy: [...open] });
}

/** MISSING_CAPABILITY when the task requires a capability `claimant` lacks, else undefined. */
export function capabilityRefusal(team: string, task: Task, claimant: string, capabilities: readonly string[]): MailroomError | undefined {
  const missing = missingCapabilities(taskRequires(task), capabilities);
  if (missing.length === 0) return undefined;
  const has = capabilities.length > 0 ? `it declares ${capabilities.join(', ')}` : 'it declares none';
  return refusal('missing_capability', team, claimant, task, `Task #${task.id} requires ${missing.join(', ')}, which ${claimant} lacks (${has}); a member with it must claim it (\`mailroom team spawn <name> --capability ${missing.join(',')}\`).`, {
    requires: taskRequires(task),
    missing,
  });
}

/**
 * AGENT_BUSY when `claimant` owns a task that is not completed (other than `except`), else undefined.
 */
export function busyRefusal(team: string, tasks: readonly Task[], claimant: string, except?: string): MailroomError | undefined {
  const busy = tasks.filter((t) => t.owner === claimant && t.status !== 'completed' && t.id !== except);
  if (busy.length === 0) return undefined;
  return agentBusy(team, claimant, busy.map((t) => t.id));
}

/** AGENT_BUSY (reason agent_busy): `claimant` owns the open tasks `owned` (ids). */
export function agentBusy(team: string, claimant: string, owned: readonly string[]): MailroomError {
  const ids = owned.map((id) => `#${id}`).join(', ');
  return new MailroomError('AGENT_BUSY', `${claimant} already owns open task ${ids}; finish it before claiming another (reason: agent_busy).`, {
    details: { reason: 'agent_busy', team, as: claimant, owned: [...owned] },
  });
}

/**
 * The tasks a claim without an id tries, in order (`tasks` in id order): with `preferAssigned`,
 * first the claimant's own pending, unblocked tasks; then every ready task (pending, unowned,
 * unblocked, not internal), lowest id first — leaving out those requiring a capability the
 * claimant (declaring `capabilities`) lacks.
 */
export function claimCandidates(tasks: readonly Task[], claimant: string, preferAssigned: boolean, capabilities: readonly string[] = []): Task[] {
  const byId = indexTasks(tasks);
  const able = (t: Task) => missingCapabilities(taskRequires(t), capabilities).length === 0;
  const assigned = preferAssigned ? tasks.filter((t) => t.status === 'pending' && t.owner === claimant && !isInternal(t) && openBlockers(t, byId).length === 0 && able(t)) : [];
  return [...assigned, ...tasks.filter((t) => isReady(t, byId) && able(t))];
}

/**
 * Makes `task` claimed by `claimant` in place: owner and status in_progress (mailroom's claim,
 * docs/format.md §9), and the task's next fencing token (every claim gets one, a re-claim by the
 * same owner too: an earlier process of that owner is fenced off), issued at the store's clock
 * `nowMs` (epoch ms; ./task-fence.ts nextFence). @returns the token
 */
export function applyClaim(task: Task, claimant: string, nowMs: number): number {
  task.owner = claimant;
  task.status = 'in_progress';
  return issueFence(task, nowMs);
}
