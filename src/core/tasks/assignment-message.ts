/**
 * The `task_assignment` message sent to a task's new owner (reference §4), except when the owner
 * made the change themselves (mailroom's rule; Claude Code also sends it on self-claims, #26502).
 */
import { findMember, leadName } from '../../domain/roster.js';
import type { Task } from '../../protocol/task.js';
import { teamOf, type TeamOptions } from '../context.js';
import { sendStructured } from '../messages/send.js';

/**
 * Sends `task_assignment` from `actor` to `task.owner` when they differ and both are members.
 * @returns true when a message was sent.
 */
export async function notifyAssignment(options: TeamOptions, task: Task, actor: string): Promise<boolean> {
  const owner = task.owner;
  if (owner === undefined || owner === '' || owner === actor) return false;
  const config = await teamOf(options).readConfig(options.team);
  if (!findMember(config, owner)) return false;
  const from = findMember(config, actor) ? actor : leadName(config);
  await sendStructured({
    ...options,
    to: owner,
    from,
    message: { type: 'task_assignment', taskId: task.id, subject: task.subject, description: task.description, assignedBy: from },
  });
  return true;
}
