/**
 * NO_READY_TASK, explained: a claim without an id found nothing it may take. When ready tasks were
 * left out because they require a capability the claimant lacks (./capabilities.ts), the error
 * says how many, which capabilities and tasks, who declares them, and how a member gets one —
 * `task list --ready` shows those tasks, so "no ready task" alone reads as a bug.
 */
import { MailroomError } from '../errors.js';
import type { Task } from '../protocol/task.js';
import { missingCapabilities, taskRequires } from './capabilities.js';
import { indexTasks, isReady } from './task-board.js';

/** A ready task the claimant was not offered: the capabilities it requires that the claimant lacks. */
export interface SkippedTask {
  id: string;
  missing: string[];
}

/** The ready tasks (`tasks` in id order) that require a capability `have` lacks. */
export function skippedForCapabilities(tasks: readonly Task[], have: readonly string[]): SkippedTask[] {
  const byId = indexTasks(tasks);
  return tasks.filter((t) => isReady(t, byId)).map((t) => ({ id: t.id, missing: missingCapabilities(taskRequires(t), have) })).filter((s) => s.missing.length > 0);
}

/**
 * NO_READY_TASK for `claimant` in `team`. With `skipped` tasks, the message reads e.g. "1 ready task
 * needs a capability erin lacks: review (#3)", names the members declaring each capability
 * (`declaredBy`), and says capabilities are declared when a member joins (`team spawn --capability`,
 * `mcp --capability`). `details.skipped` carries the same list.
 */
export function noReadyTask(team: string, claimant: string, skipped: readonly SkippedTask[], declaredBy: ReadonlyMap<string, readonly string[]> = new Map()): MailroomError {
  if (skipped.length === 0) {
    return new MailroomError('NO_READY_TASK', `No ready task in team "${team}" (pending, unowned, unblocked). See \`mailroom task list\`.`, { details: { team, as: claimant, skipped: [] } });
  }
  const byCapability = new Map<string, string[]>();
  for (const s of skipped) for (const c of s.missing) byCapability.set(c, [...(byCapability.get(c) ?? []), `#${s.id}`]);
  const caps = [...byCapability].map(([c, ids]) => `${c} (${ids.join(', ')})`).join(', ');
  const n = skipped.length;
  const who = [...byCapability.keys()].map((c) => {
    const members = declaredBy.get(c) ?? [];
    return members.length > 0 ? `${c} is declared by ${members.join(', ')}` : `no member declares ${c}`;
  });
  const first = [...byCapability.keys()][0]!;
  const text =
    `No ready task ${claimant} can claim in team "${team}": ${n} ready task${n === 1 ? ' needs' : 's need'} a capability ${claimant} lacks: ${caps}. ` +
    `${who.join('; ')}. A member declares capabilities when it joins (\`mailroom team spawn <name> --capability ${first}\`, or \`mailroom mcp --as <name> --capability ${first}\`); ` +
    `or let a member that declares it claim the task (\`mailroom task claim ${skipped[0]!.id} --as <member>\`).`;
  return new MailroomError('NO_READY_TASK', text, { details: { team, as: claimant, skipped: skipped.map((s) => ({ id: s.id, missing: [...s.missing] })) } });
}
