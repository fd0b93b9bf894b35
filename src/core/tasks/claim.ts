/**
 * Claiming tasks (reference §5 "Claim", ../shared/cases/06). A claim sets `owner` to the claimant
 * and `status` to in_progress, or fails with one of Claude Code's reasons: already_claimed
 * (TASK_ALREADY_CLAIMED), already_resolved (TASK_ALREADY_RESOLVED), blocked (TASK_BLOCKED),
 * agent_busy (AGENT_BUSY, busy-check variant). The decision is made inside the store's transition
 * (src/domain/task-claim.ts), so racing claims have exactly one winner.
 */
import { requireMember } from '../../domain/roster.js';
import { assertTaskId } from '../../domain/task-board.js';
import type { Task } from '../../protocol/task.js';
import { opOf, teamOf, type TeamOptions } from '../context.js';
import { isMailroomError, type MailroomError } from '../../errors.js';
import { capabilitiesOf } from '../../domain/capabilities.js';
import { noReadyTask, skippedForCapabilities } from '../../domain/no-ready-task.js';
import { recordIsFor } from '../../protocol/member-record.js';
import type { TeamStore } from '../../store/team-store.js';

export type { ClaimRefusal } from '../../domain/task-claim.js';

/** Input of {@link claimTask} and {@link claimNextTask}. */
export interface ClaimOptions extends TeamOptions {
  /** The claimant's member name. */
  as: string;
  /** Refuse (agent_busy) when the claimant already owns a task that is not completed. */
  busyCheck?: boolean;
  /** {@link claimNextTask} only: first a pending, unblocked task already assigned to the claimant. */
  preferAssigned?: boolean;
}

/**
 * Claims one task.
 * @returns the task after the claim.
 * @throws INVALID_ARGUMENT (malformed id), TASK_NOT_FOUND, TASK_ALREADY_CLAIMED, TASK_ALREADY_RESOLVED, TASK_BLOCKED, AGENT_BUSY (each with `details.reason`)
 */
export async function claimTask(options: ClaimOptions & { id: string }): Promise<Task> {
  assertTaskId(options.id);
  const store = teamOf(options);
  await requireClaimant(store, options);
  const { value } = await store.claimTask(options.team, { claimant: options.as, id: options.id, busyCheck: options.busyCheck }, opOf(options, options.as));
  return value!;
}

/**
 * Claims the lowest-id ready task (pending, unowned, unblocked), so no task is handed to two
 * claimants. @returns the claimed task, or undefined when none is ready.
 * @throws AGENT_BUSY with busyCheck
 */
export async function claimNextTask(options: ClaimOptions): Promise<Task | undefined> {
  const store = teamOf(options);
  await requireClaimant(store, options);
  const request = { claimant: options.as, busyCheck: options.busyCheck, preferAssigned: options.preferAssigned };
  return (await store.claimTask(options.team, request, opOf(options, options.as))).value;
}

/**
 * The NO_READY_TASK to report after {@link claimNextTask} found nothing: it names the ready tasks
 * left out because they require a capability the claimant lacks, and who declares it
 * (src/domain/no-ready-task.ts). Reads the board and the member records; writes nothing.
 */
export async function noReadyTaskError(options: TeamOptions & { as: string }): Promise<MailroomError> {
  const store = teamOf(options);
  const [config, records, tasks] = await Promise.all([store.readConfig(options.team), store.readMemberRecords(options.team), store.listTasks(options.team)]);
  const capsOf = (name: string) => {
    const member = config.members.find((m) => m.name === name);
    return capabilitiesOf(member && records.find((r) => r.name === name && recordIsFor(r, member)));
  };
  const skipped = skippedForCapabilities(tasks, capsOf(options.as));
  const declaredBy = new Map<string, string[]>();
  for (const c of new Set(skipped.flatMap((s) => s.missing))) declaredBy.set(c, config.members.map((m) => m.name).filter((n) => capsOf(n).includes(c)));
  return noReadyTask(options.team, options.as, skipped, declaredBy);
}

/** The claimant must be in the roster: MEMBER_NOT_FOUND, saying so when it left (../members/departed.ts, loaded only then). */
async function requireClaimant(store: TeamStore, options: ClaimOptions): Promise<void> {
  try {
    requireMember(await store.readConfig(options.team), options.as, 'claimant');
  } catch (err) {
    if (!isMailroomError(err, 'MEMBER_NOT_FOUND')) throw err;
    const { explainDeparted } = await import('../members/departed.js');
    throw await explainDeparted(store, options.team, err);
  }
}
