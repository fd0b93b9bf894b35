/**
 * Approvals: the permission, plan-approval and sandbox requests teammates send the lead, and the
 * lead's answers, in Claude Code's shapes (reference §4). A request is *open* while the requester's
 * inbox (live, archived, or removed by its reader as the journal knows it) holds no response with
 * the same request id. `mailroom requests`, `approve`, `deny`, the lead's MCP tools and the runtime
 * (core/messages/ask-lead.ts) all go through here.
 */
import { MailroomError } from '../../errors.js';
import { leadName } from '../../domain/roster.js';
import type { InboxEntry } from '../../protocol/inbox.js';
import { parseMessageText, type StructuredOf } from '../../protocol/structured.js';
import { markRead, inboxHistory } from './inbox-read.js';
import { sendStructured, type SentMessage } from './send.js';
import { teamOf, type TeamOptions } from '../context.js';
import { requirePermitted } from '../teams/policy.js';
import { loadTrust, type Trust } from '../trust/trust.js';
import { verdictOf } from '../trust/verify.js';

/** The kinds of request a lead answers. */
export type RequestKind = 'permission' | 'plan' | 'sandbox';

/** One open request, as `mailroom requests` lists it. */
export interface OpenRequest {
  /** The request id, echoed byte for byte in the answer (`perm-…`, `plan_approval-…`, `sandbox-…`). */
  id: string;
  kind: RequestKind;
  /** The teammate that asks (and gets the answer). */
  from: string;
  /** Whose inbox holds the request (the lead). */
  to: string;
  /** When it was sent (ISO 8601, the inbox entry's timestamp). */
  timestamp: string;
  /** One line for humans: the tool and its description, the plan's first line, the host. */
  summary: string;
  /** The request as sent (Claude Code's shape). */
  message: StructuredOf<'permission_request'> | StructuredOf<'plan_approval_request'> | StructuredOf<'sandbox_permission_request'>;
  /** The lead's inbox entry that carried it. */
  entry: InboxEntry;
}

/** Input of {@link listRequests}. */
export interface ListRequestsOptions extends TeamOptions {
  /** Also list requests already answered (each then has `answered: true`). */
  all?: boolean;
}

/**
 * A request with whether it has been answered; in a team signed on this machine, whether it
 * verified (`verified`, and `reason` when it did not: unsigned, badly signed, or sent by someone
 * other than the teammate it names), so a forged request is never listed as genuine.
 */
export type ListedRequest = OpenRequest & { answered?: true; verified?: boolean; reason?: string };

/**
 * The lead's requests, oldest first: open ones only unless `all`.
 * @throws TEAM_NOT_FOUND, FILE_CORRUPT
 */
export async function listRequests(options: ListRequestsOptions): Promise<ListedRequest[]> {
  const store = teamOf(options);
  const config = await store.readConfig(options.team);
  const lead = leadName(config);
  const live = await store.readInbox(options.team, lead).catch(() => [] as InboxEntry[]);
  const exists = (await store.listInboxes(options.team)).some((i) => i.name === lead);
  const history = await inboxHistory({ ...options, agent: lead, live, exists });
  const requests = [...history.map((h) => h.entry), ...live].flatMap((entry) => requestOf(entry, lead));
  const answeredBy = new Map<string, Set<string>>();
  const out: ListedRequest[] = [];
  for (const r of requests) {
    if (!answeredBy.has(r.from)) answeredBy.set(r.from, await answeredIds(options, r.from));
    const answered = answeredBy.get(r.from)!.has(r.id);
    if (answered && !options.all) continue;
    out.push(answered ? { ...r, answered: true } : r);
  }
  const trust = await loadTrust(options);
  if (trust.signed) for (const r of out) Object.assign(r, requestVerification(trust, r, lead));
  return out;
}

/** `verified` (and `reason`) of a listed request in a signed team: judged by its signature (core/trust/verify.ts), and its sender must be the teammate it names. */
function requestVerification(trust: Trust, r: OpenRequest, lead: string): { verified: boolean; reason?: string } {
  if (r.entry.from !== r.from) return { verified: false, reason: `sent by "${r.entry.from}" in the name of "${r.from}"` };
  const v = verdictOf(trust, r.entry, lead);
  return v.status === 'failed' ? { verified: false, reason: v.reason } : { verified: v.status === 'verified' };
}

/** The request an entry carries, if it is one. */
function requestOf(entry: InboxEntry, to: string): OpenRequest[] {
  const parsed = parseMessageText(entry.text);
  if (parsed.kind !== 'structured') return [];
  const m = parsed.message;
  const base = { to, timestamp: entry.timestamp, entry };
  switch (m.type) {
    case 'permission_request':
      return [{ ...base, id: m.request_id, kind: 'permission', from: m.agent_id, summary: `${m.tool_name}: ${m.description}`, message: m }];
    case 'plan_approval_request':
      return [{ ...base, id: m.requestId, kind: 'plan', from: m.from, summary: `plan: ${firstLine(m.planContent)}`, message: m }];
    case 'sandbox_permission_request':
      return [{ ...base, id: m.requestId, kind: 'sandbox', from: m.workerName, summary: `network access to ${m.hostPattern.host}`, message: m }];
    default:
      return [];
  }
}

function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}

/** Request ids answered in `member`'s inbox (live, archived, or removed by its reader). */
async function answeredIds(options: TeamOptions, member: string): Promise<Set<string>> {
  const store = teamOf(options);
  const inboxes = await store.listInboxes(options.team);
  const exists = inboxes.some((i) => i.name === member);
  const live = exists ? await store.readInbox(options.team, member) : [];
  const history = await inboxHistory({ ...options, agent: member, live, exists });
  const ids = new Set<string>();
  for (const entry of [...history.map((h) => h.entry), ...live]) {
    const id = responseIdOf(entry);
    if (id !== undefined) ids.add(id);
  }
  return ids;
}

/** The request id an entry answers, when it is a permission, plan or sandbox response. */
export function responseIdOf(entry: InboxEntry): string | undefined {
  const parsed = parseMessageText(entry.text);
  if (parsed.kind !== 'structured') return undefined;
  const m = parsed.message;
  if (m.type === 'permission_response') return m.request_id;
  if (m.type === 'plan_approval_response' || m.type === 'sandbox_permission_response') return m.requestId;
  return undefined;
}

/** Input of {@link answerRequest}. */
export interface AnswerOptions extends TeamOptions {
  /** The request id (as `mailroom requests` shows it). */
  requestId: string;
  approve: boolean;
  /** Approving: a note for the teammate (a plan's `feedback`; added as `feedback` to the others). */
  feedback?: string | undefined;
  /** Denying: why (required); a permission's `error`, a plan's `feedback`. */
  reason?: string | undefined;
  /** Who answers (default: the lead). Claude Code honours answers only from `team-lead`. */
  from?: string | undefined;
}

/** What {@link answerRequest} did: the request and the answer sent to its teammate. */
export interface Answered {
  request: OpenRequest;
  approved: boolean;
  sent: SentMessage;
}

/**
 * Answers an open request in Claude Code's response shape (reference §4), to the teammate that
 * asked, and marks the request read in the lead's inbox:
 * - permission: `permission_response` `subtype: "success"` with `response: {updated_input,
 *   permission_updates: []}` (the input as asked), or `subtype: "error"` with `error` = the reason;
 *   `tool_use_id` echoed (2.1.332);
 * - plan: `plan_approval_response` with `approved` and `feedback` (the reason when denying);
 * - sandbox: `sandbox_permission_response` with `host` and `allow`.
 * @throws NOT_PERMITTED (rule `lead-only`: `from` is not the lead), REQUEST_NOT_FOUND (no such request, or answered already: the message says which),
 * INVALID_ARGUMENT (deny without a reason), MEMBER_NOT_FOUND (the teammate left)
 */
export async function answerRequest(options: AnswerOptions): Promise<Answered> {
  // Only the lead answers, in every team (src/domain/policy.ts): refused before the request is looked up.
  await requirePermitted(options, options.from, [{ rule: 'leadOnly', type: 'answer to a request' }]);
  const all = await listRequests({ ...options, all: true });
  const request = all.find((r) => r.id === options.requestId);
  if (!request) {
    const open = all.filter((r) => !r.answered).map((r) => r.id);
    throw new MailroomError('REQUEST_NOT_FOUND', `No request "${options.requestId}" in the lead's inbox. ${open.length > 0 ? `Open: ${open.join(', ')}.` : 'None is open.'} Run \`mailroom requests\` to list them.`, {
      details: { requestId: options.requestId, open },
    });
  }
  if (request.answered) {
    throw new MailroomError('REQUEST_NOT_FOUND', `Request "${request.id}" from ${request.from} has been answered already: \`mailroom requests --all\` shows it.`, { details: { requestId: request.id, answered: true } });
  }
  if (!options.approve && (options.reason === undefined || options.reason.trim() === '')) {
    throw new MailroomError('INVALID_ARGUMENT', `Denying needs a reason the teammate can act on: add --reason "…".`);
  }
  const message = responseTo(request, options);
  const sent = await sendStructured({ ...options, from: options.from, to: request.from, message });
  if (request.entry.read !== true) await markRead({ ...options, agent: request.to, entries: [request.entry] });
  return { request, approved: options.approve, sent };
}

function responseTo(request: OpenRequest, o: AnswerOptions): { type: string } & Record<string, unknown> {
  const note = o.approve ? o.feedback : o.reason;
  const m = request.message;
  switch (m.type) {
    case 'permission_request': {
      const head = { type: 'permission_response', request_id: m.request_id };
      const tail: Record<string, unknown> = { tool_use_id: m.tool_use_id };
      if (note !== undefined && o.approve) tail.feedback = note;
      return o.approve
        ? { ...head, subtype: 'success', response: { updated_input: m.input, permission_updates: [] }, ...tail }
        : { ...head, subtype: 'error', error: note ?? 'Denied by the lead.', ...tail };
    }
    case 'plan_approval_request': {
      const r: Record<string, unknown> = { type: 'plan_approval_response', requestId: m.requestId, approved: o.approve };
      if (note !== undefined) r.feedback = note;
      return r as { type: string };
    }
    case 'sandbox_permission_request': {
      const r: Record<string, unknown> = { type: 'sandbox_permission_response', requestId: m.requestId, host: m.hostPattern.host, allow: o.approve };
      if (note !== undefined) r.feedback = note;
      return r as { type: string };
    }
  }
}
