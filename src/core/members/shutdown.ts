/**
 * The shutdown handshake (reference §7.4): the lead sends `shutdown_request`; the teammate answers
 * `shutdown_approved` or `shutdown_rejected` (echoing the request id byte for byte); on approval the
 * lead removes the member and returns its open tasks to pending with no owner.
 */
import { deadLetterDeparted } from '../messages/dead-letters.js';
import type { DeadLetter } from '../../domain/dead-letters.js';
import { MailroomError } from '../../errors.js';
import { leadName, requireMember } from '../../domain/roster.js';
import type { Task } from '../../protocol/task.js';
import { shutdownPaneFields } from '../../protocol/backend.js';
import { parseMessageText } from '../../protocol/structured.js';
import { nowOf, opOf, teamOf, type TeamOptions } from '../context.js';
import { inboxHistory } from '../messages/inbox-read.js';
import { completeStructured, sendStructured, type SentMessage } from '../messages/send.js';
import { configOf, type KnownConfig } from '../teams/known-config.js';

/**
 * Sends `shutdown_request` from the lead to `to` (request id `shutdown-<epochMs>@<to>`).
 * `from`: who sends it (default: the lead); anyone else is refused (lead-only, src/domain/policy.ts).
 * @returns the sent message and its request id.
 * @throws INVALID_ARGUMENT when `to` is the lead; MEMBER_NOT_FOUND when `to` is no member; NOT_PERMITTED when `from` is not the lead
 */
export async function requestShutdown(options: TeamOptions & KnownConfig & { to: string; reason?: string | undefined; from?: string | undefined }): Promise<SentMessage & { requestId: string }> {
  const config = await configOf(options);
  const lead = leadName(config);
  if (options.to === lead) throw new MailroomError('INVALID_ARGUMENT', `${lead} is the team's lead: a shutdown_request goes from the lead to a teammate. To end the team, use \`mailroom team delete ${options.team}\`.`);
  const message: { type: string } & Record<string, unknown> = { type: 'shutdown_request' };
  if (options.reason !== undefined) message.reason = options.reason;
  const sent = await sendStructured({ ...options, config, to: options.to, message });
  return { ...sent, requestId: (sent.message as { requestId: string }).requestId };
}

/** Input of {@link respondToShutdown}. */
export interface ShutdownResponseOptions extends TeamOptions, KnownConfig {
  /** The teammate answering. */
  from: string;
  /** The request id, echoed unchanged. */
  requestId: string;
  approve: boolean;
  /** Required when rejecting. */
  reason?: string;
  /** The recipient the caller named, if any: it must be the lead (answers always go to the lead). */
  to?: string;
  /**
   * Refuse (REQUEST_NOT_FOUND) unless a shutdown_request with `requestId` is in the responder's
   * inbox, live or archived. Set for model-driven answers (MCP, runtime tools), which may invent ids.
   */
  requireRequest?: boolean;
  /**
   * On approval, leave the roster first (its open tasks back to pending), then send the approval:
   * what a teammate's own runtime does (runtime and MCP `shutdown_response`), so a lead that
   * deletes the team on reading the approval is never refused for it.
   */
  leave?: boolean;
}

/**
 * The requestIds of the shutdown_requests `agent`'s inbox received (its history, oldest first,
 * then the live inbox: a request its reader removed counts as received, see {@link inboxHistory}).
 * Entries whose text does not parse as a protocol message are skipped.
 */
export async function shutdownRequestIds(options: TeamOptions & { agent: string }): Promise<string[]> {
  const store = teamOf(options);
  const [live, exists] = await Promise.all([store.readInbox(options.team, options.agent), store.listInboxes(options.team).then((refs) => refs.some((i) => i.name === options.agent))]);
  const history = await inboxHistory({ ...options, agent: options.agent, live, exists });
  const ids: string[] = [];
  for (const entry of [...history.map((h) => h.entry), ...live]) {
    const parsed = parseMessageText(entry.text);
    if (parsed.kind === 'structured' && parsed.message.type === 'shutdown_request' && typeof parsed.message.requestId === 'string') ids.push(parsed.message.requestId);
  }
  return ids;
}

/** Throws REQUEST_NOT_FOUND unless `requestId` names a shutdown_request `from` received. */
async function requireShutdownRequest(options: ShutdownResponseOptions): Promise<void> {
  const ids = await shutdownRequestIds({ ...options, agent: options.from });
  if (ids.includes(options.requestId)) return;
  const known = ids.length === 0 ? `${options.from} has received no shutdown_request` : `requests received: ${ids.slice(-5).map((id) => JSON.stringify(id)).join(', ')}`;
  throw new MailroomError('REQUEST_NOT_FOUND', `No shutdown_request with requestId ${JSON.stringify(options.requestId)} in ${options.from}'s inbox (${known}). Copy the requestId of the shutdown_request exactly.`, {
    details: { requestId: options.requestId, received: ids },
  });
}

/**
 * Sends `shutdown_approved` (with the member's paneId and backendType where it has them:
 * {@link shutdownPaneFields}) — with `leave`, after the member left the roster (its open tasks back
 * to pending, {@link completeShutdown}), so a lead that deletes the team on reading the approval is
 * never refused for it (issue 10: Claude Code's TeamDelete counts members still in config.json) — or
 * `shutdown_rejected`
 * (with a reason) to the lead. @throws MESSAGE_INVALID when rejecting without a reason;
 * INVALID_ARGUMENT when `to` is given and is not the lead;
 * REQUEST_NOT_FOUND with `requireRequest` when no such request reached the responder
 */
export async function respondToShutdown(options: ShutdownResponseOptions): Promise<SentMessage> {
  const config = await configOf(options);
  const member = requireMember(config, options.from, 'teammate');
  if (!options.approve && !options.reason) {
    throw new MailroomError('MESSAGE_INVALID', 'Rejecting a shutdown needs a reason: pass --reason "<why>".');
  }
  if (options.to !== undefined && options.to !== leadName(config)) {
    throw new MailroomError('INVALID_ARGUMENT', `A shutdown answer goes to the lead, ${leadName(config)}, not ${JSON.stringify(options.to)}: name ${leadName(config)} as the recipient.`);
  }
  if (options.requireRequest) await requireShutdownRequest(options);
  const message: { type: string } & Record<string, unknown> = options.approve
    ? { type: 'shutdown_approved', requestId: options.requestId, from: options.from }
    : { type: 'shutdown_rejected', requestId: options.requestId, from: options.from, reason: options.reason };
  if (options.approve) {
    // timestamp is filled in by sendStructured: one instant for the entry and the message.
    Object.assign(message, shutdownPaneFields(member));
  }
  if (options.approve && options.leave) {
    // The message is checked before the member leaves, so a malformed one changes nothing.
    completeStructured(message, options.from, nowOf(options));
    await completeShutdown({ ...options, name: options.from });
    return sendStructured({ ...options, to: leadName(config), from: options.from, message, rosterAsOf: config });
  }
  return sendStructured({ ...options, config, to: leadName(config), from: options.from, message });
}

/** What {@link completeShutdown} did. */
export interface ShutdownOutcome {
  /** True when the member was in the roster and got removed. */
  removed: boolean;
  /** Tasks that went back to pending with no owner. */
  unassigned: Task[];
  /** Its unread messages, moved to the dead letters (their senders told; src/core/messages/dead-letters.ts). */
  deadLettered: DeadLetter[];
}

/**
 * The lead's side of an approval: removes the member (by name or agentId) and, in the same store
 * transition, unassigns every non-completed task it owned (owner dropped, status pending); then its
 * unread messages are dead-lettered and their senders told ({@link deadLetterDeparted}). A member
 * already gone from the roster still gets its tasks unassigned (by name and `<name>@<team>`) and its
 * unread messages dead-lettered.
 */
export async function completeShutdown(options: TeamOptions & { name: string }): Promise<ShutdownOutcome> {
  const store = teamOf(options);
  const op = opOf(options);
  const { value } = await store.removeMember(options.team, options.name, op);
  if (value) return { removed: true, unassigned: value.unassigned, deadLettered: await deadLetterDeparted({ ...options, name: value.member.name }) };
  const unassigned: Task[] = [];
  for (const owner of new Set([options.name, `${options.name}@${options.team}`])) unassigned.push(...(await store.unassignTasks(options.team, owner, op)).value);
  const name = options.name.endsWith(`@${options.team}`) ? options.name.slice(0, -options.team.length - 1) : options.name;
  return { removed: false, unassigned, deadLettered: await deadLetterDeparted({ ...options, name }) };
}
