/**
 * Builds the page's {@link WireState} from what `watch` already knows: the team snapshot
 * (core/snapshot.ts), the open requests, the dead letters and the member records. Pure: the same
 * inputs give the same state.
 */
import type { TeamSnapshot, MemberView, MessageView } from '../core/live/snapshot.js';
import type { ListedRequest } from '../core/messages/approvals.js';
import type { DeadLetter } from '../protocol/dead-letter.js';
import type { MemberRecord } from '../protocol/member-record.js';
import type { TaskView } from '../core/tasks/board.js';
import type { WireDeadLetter, WireMember, WireMessage, WireRequest, WireState, WireTask } from './wire.js';

/** The newest messages a state carries (older ones: the journal timeline). */
export const MESSAGE_LIMIT = 500;
/** Stored text longer than this is cut for the page (bytes of UTF-16, roughly). */
const TEXT_LIMIT = 4096;

/** Inputs of {@link buildState}. */
export interface StateInputs {
  snapshot: TeamSnapshot;
  requests: readonly ListedRequest[];
  deadLetters: readonly DeadLetter[];
  records: readonly MemberRecord[];
  actor: string;
  store: string;
  host: string;
  now: number;
}

/** The page's state. Cost is linear in members + tasks + {@link MESSAGE_LIMIT}. */
export function buildState(i: StateInputs): WireState {
  const s = i.snapshot;
  const caps = new Map(i.records.map((r) => [r.name, r.capabilities ?? []]));
  const messages = s.messages.slice(-MESSAGE_LIMIT).map(messageOf);
  return {
    team: s.team,
    exists: s.exists,
    ended: s.ended !== undefined,
    description: s.description,
    lead: s.lead,
    actor: i.actor,
    store: i.store,
    host: i.host,
    members: s.members.map((m) => memberOf(m, [...(caps.get(m.name) ?? [])], i.host)),
    tasks: s.tasks.map(taskOf),
    messages,
    messageTotal: s.messages.length,
    messageLimit: MESSAGE_LIMIT,
    unread: s.counts.unread,
    requests: i.requests.map(requestOf),
    deadLetters: i.deadLetters.map(deadLetterOf),
    problems: s.problems.map((p) => (p.fix ? `${p.message} Fix: ${p.fix}` : p.message)),
    at: i.now,
  };
}

function memberOf(m: MemberView, capabilities: string[], host: string): WireMember {
  const p = m.presence;
  const remote = p?.host !== undefined && p.host !== host && (p.state === 'working' || p.state === 'idle') ? p.host : undefined;
  return {
    name: m.name,
    isLead: m.isLead,
    inRoster: m.inRoster,
    state: m.state,
    stateReason: m.stateReason,
    ...(p ? { presence: { state: p.state, lastBeatAt: p.lastBeatAt, host: p.host, pid: p.pid } } : {}),
    backend: m.runtime ?? m.backendType,
    model: m.model,
    color: m.color,
    capabilities,
    currentTask: m.currentTask,
    unread: m.unread,
    lastActivity: m.lastActivity,
    ...(remote ? { remoteHost: remote } : {}),
  };
}

function taskOf(v: TaskView): WireTask {
  const t = v.task;
  const meta = Object.fromEntries(Object.entries(t.metadata ?? {}).filter(([k]) => !k.startsWith('_')));
  // The claim's fencing token, kept in the task's own record (src/domain/task-fence.ts).
  const token = (t as { fencingToken?: unknown }).fencingToken;
  return {
    id: t.id,
    subject: t.subject,
    description: t.description ?? '',
    status: t.status,
    owner: t.owner || undefined,
    blockedBy: [...(t.blockedBy ?? [])],
    blocks: [...(t.blocks ?? [])],
    openBlockers: v.openBlockers,
    ready: v.ready,
    ...(typeof token === 'number' ? { fencingToken: token } : {}),
    ...(Object.keys(meta).length > 0 ? { metadata: JSON.stringify(meta, null, 2) } : {}),
  };
}

function messageOf(m: MessageView): WireMessage {
  const e = m.entry as MessageView['entry'] & { msg_id?: string; in_reply_to?: string; reply_expected?: boolean };
  const type = m.parsed.kind === 'structured' ? m.parsed.message.type : m.parsed.kind === 'plain' ? undefined : m.parsed.type;
  return {
    key: m.key,
    msgId: e.msg_id,
    from: e.from,
    to: m.to,
    timestamp: e.timestamp,
    summary: e.summary,
    line: m.line,
    text: e.text.length > TEXT_LIMIT ? `${e.text.slice(0, TEXT_LIMIT)}… (${e.text.length} characters)` : e.text,
    status: m.status,
    ...(type ? { type } : {}),
    ...(typeof e.in_reply_to === 'string' ? { inReplyTo: e.in_reply_to } : {}),
    ...(e.reply_expected === true ? { replyExpected: true } : {}),
  };
}

function requestOf(r: ListedRequest): WireRequest {
  return { id: r.id, kind: r.kind, from: r.from, timestamp: r.timestamp, summary: r.summary, answered: r.answered === true };
}

function deadLetterOf(d: DeadLetter): WireDeadLetter {
  return { id: d.id, to: d.to, from: d.entry.from, timestamp: d.at, summary: d.entry.summary ?? d.entry.text.slice(0, 120) };
}
