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
import type { ClaimRecord } from '../core/tasks/claim-history.js';
import type { DeliveryBook } from '../core/messages/delivery-book.js';
import type { PathLease } from '../protocol/path-lease.js';
import type { WireClaim, WireDeadLetter, WireLease, WireMember, WireMessage, WireRequest, WireState, WireTask } from './wire.js';

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
  /** Each task's claims from the journal (empty for a task with none). */
  claimsOf(id: string): readonly ClaimRecord[];
  /** The journal's delivery events so far. */
  deliveries: DeliveryBook;
  /** The live path leases. */
  leases: readonly PathLease[];
  /** Members a `mailroom bridge` on this root brought in from the shared store. */
  bridged: ReadonlySet<string>;
  actor: string;
  store: string;
  host: string;
  now: number;
}

/** The page's state. Cost is linear in members + tasks + {@link MESSAGE_LIMIT}. */
export function buildState(i: StateInputs): WireState {
  const s = i.snapshot;
  const caps = new Map(i.records.map((r) => [r.name, r.capabilities ?? []]));
  const replied = new Set<string>();
  for (const m of s.messages) {
    const to = (m.entry as { in_reply_to?: unknown }).in_reply_to;
    if (typeof to === 'string') replied.add(`${to}\u0000${m.entry.from}`);
  }
  const messages = s.messages.slice(-MESSAGE_LIMIT).map((m) => messageOf(m, i.deliveries, replied));
  return {
    team: s.team,
    exists: s.exists,
    ended: s.ended !== undefined,
    description: s.description,
    lead: s.lead,
    actor: i.actor,
    store: i.store,
    host: i.host,
    members: s.members.map((m) => memberOf(m, [...(caps.get(m.name) ?? [])], i.host, i.bridged.has(m.name))),
    tasks: s.tasks.map((v) => taskOf(v, i.claimsOf(v.task.id))),
    messages,
    messageTotal: s.messages.length,
    messageLimit: MESSAGE_LIMIT,
    unread: s.counts.unread,
    requests: i.requests.map(requestOf),
    deadLetters: i.deadLetters.map(deadLetterOf),
    leases: i.leases.map(leaseOf),
    problems: s.problems.map((p) => (p.fix ? `${p.message} Fix: ${p.fix}` : p.message)),
    at: i.now,
  };
}

function memberOf(m: MemberView, capabilities: string[], host: string, bridged: boolean): WireMember {
  const p = m.presence;
  const remote = p?.host !== undefined && p.host !== host && (p.state === 'working' || p.state === 'idle') ? p.host : undefined;
  // A bridged member holds no presence on this root: its state is the isActive the bridge copied.
  const reason = bridged && !p ? `${m.stateReason} — as \`mailroom bridge\` last copied it from the shared store, where its presence is kept` : m.stateReason;
  return {
    name: m.name,
    isLead: m.isLead,
    inRoster: m.inRoster,
    state: m.state,
    stateReason: reason,
    ...(p ? { presence: { state: p.state, lastBeatAt: p.lastBeatAt, host: p.host, pid: p.pid } } : {}),
    backend: m.runtime ?? m.backendType,
    model: m.model,
    color: m.color,
    capabilities,
    currentTask: m.currentTask,
    unread: m.unread,
    lastActivity: m.lastActivity,
    ...(remote ? { remoteHost: remote } : {}),
    ...(bridged ? { bridged: true } : {}),
  };
}

function taskOf(v: TaskView, claims: readonly ClaimRecord[]): WireTask {
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
    claims: claims.map(claimOf),
  };
}

function claimOf(c: ClaimRecord): WireClaim {
  return { owner: c.owner, token: c.token, at: c.at, by: c.by, ended: c.ended?.how, endedAt: c.ended?.at, endedBy: c.ended?.by };
}

function leaseOf(l: PathLease): WireLease {
  return { id: l.id, holder: l.holder, repo: l.repo, paths: [...l.paths], shared: l.shared, reason: l.reason, token: l.token, acquiredAt: l.acquiredAt, expiresAt: l.expiresAt };
}

function messageOf(m: MessageView, deliveries: DeliveryBook, replied: ReadonlySet<string>): WireMessage {
  const e = m.entry as MessageView['entry'] & { msg_id?: string; in_reply_to?: string; reply_expected?: boolean };
  const delivery = deliveries.stateOf(m.to, m.entry, { read: m.status === 'read', replied: e.msg_id !== undefined && replied.has(`${e.msg_id}\u0000${m.to}`) });
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
    delivery,
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
