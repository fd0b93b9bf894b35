/**
 * The shutdown handshake (reference §7.4): the lead sends `shutdown_request`; the teammate answers
 * `shutdown_approved` or `shutdown_rejected` (echoing the request id byte for byte); on approval the
 * lead removes the member and returns its open tasks to pending with no owner.
 */
import { MailroomError } from '../errors.js';
import type { Task } from '../protocol/task.js';
import { storeOf, type TeamOptions } from './context.js';
import { leadName, requireMember } from './members.js';
import { sendStructured, type SentMessage } from './messages.js';
import { removeMember } from './spawn.js';
import { recordTasks } from './journal.js';

/**
 * Sends `shutdown_request` from the lead to `to` (request id `shutdown-<epochMs>@<to>`).
 * @returns the sent message and its request id.
 */
export async function requestShutdown(options: TeamOptions & { to: string; reason?: string }): Promise<SentMessage & { requestId: string }> {
  const message: { type: string } & Record<string, unknown> = { type: 'shutdown_request' };
  if (options.reason !== undefined) message.reason = options.reason;
  const sent = await sendStructured({ ...options, to: options.to, message });
  return { ...sent, requestId: (sent.message as { requestId: string }).requestId };
}

/** Input of {@link respondToShutdown}. */
export interface ShutdownResponseOptions extends TeamOptions {
  /** The teammate answering. */
  from: string;
  /** The request id, echoed unchanged. */
  requestId: string;
  approve: boolean;
  /** Required when rejecting. */
  reason?: string;
}

/**
 * Sends `shutdown_approved` (with the member's paneId and backendType) or `shutdown_rejected`
 * (with a reason) to the lead. @throws MESSAGE_INVALID when rejecting without a reason
 */
export async function respondToShutdown(options: ShutdownResponseOptions): Promise<SentMessage> {
  const config = await storeOf(options.root).readConfig(options.team);
  const member = requireMember(config, options.from, 'teammate');
  if (!options.approve && !options.reason) {
    throw new MailroomError('MESSAGE_INVALID', 'Rejecting a shutdown needs a reason: pass --reason "<why>".');
  }
  const message: { type: string } & Record<string, unknown> = options.approve
    ? { type: 'shutdown_approved', requestId: options.requestId, from: options.from }
    : { type: 'shutdown_rejected', requestId: options.requestId, from: options.from, reason: options.reason };
  if (options.approve) {
    // timestamp is filled in by sendStructured: one instant for the entry and the message.
    if (member.tmuxPaneId !== undefined) message.paneId = member.tmuxPaneId;
    if (member.backendType !== undefined) message.backendType = member.backendType;
  }
  return sendStructured({ ...options, to: leadName(config), from: options.from, message });
}

/** What {@link completeShutdown} did. */
export interface ShutdownOutcome {
  /** True when the member was in the roster and got removed. */
  removed: boolean;
  /** Tasks that went back to pending with no owner. */
  unassigned: Task[];
}

/**
 * The lead's side of an approval: removes the member (by name or agentId) and unassigns every
 * non-completed task it owned (owner dropped, status pending).
 */
export async function completeShutdown(options: TeamOptions & { name: string }): Promise<ShutdownOutcome> {
  const store = storeOf(options.root);
  const removed = await removeMember(options);
  const agentId = removed?.agentId ?? `${options.name}@${options.team}`;
  const unassigned: Task[] = [];
  for (const t of await store.listTasks(options.team)) {
    if (t.status === 'completed' || (t.owner !== options.name && t.owner !== agentId)) continue;
    unassigned.push(
      await store.updateTask(options.team, t.id, (task) => {
        task.owner = undefined;
        task.status = 'pending';
        return task;
      }),
    );
  }
  await recordTasks({ ...options, root: store }, 'updated', unassigned);
  return { removed: removed !== undefined, unassigned };
}
