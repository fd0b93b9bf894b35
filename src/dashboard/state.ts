/**
 * Builds the page's {@link WireState} from what `watch` already knows: the team snapshot
 * (core/snapshot.ts), the open requests, the dead letters and the member records. Pure: the same
 * inputs give the same state.
 */
import type { TeamSnapshot, MemberView, MessageView } from '../core/live/snapshot.js';
import { knownModel } from '../core/members/known-model.js';
import type { ListedRequest } from '../core/messages/approvals.js';
import type { DeadLetter } from '../protocol/dead-letter.js';
import type { MemberRecord } from '../protocol/member-record.js';
import type { TaskView } from '../core/tasks/board.js';
import type { ClaimRecord } from '../core/tasks/claim-history.js';
import type { DeliveryBook } from '../core/messages/delivery-book.js';
import type { PathLease } from '../protocol/path-lease.js';
import type { WireClaim, WireDeadLetter, WireLease, WireMember, WireMessage, WireRequest, WireState, WireTask } from './wire.js';

/** The newest messages a state carries (older ones: paged with {@link olderMessages}, and the journal timeline). */
export const MESSAGE_LIMIT = 200;

/**
 * Wire objects kept from one build to the next, so an unchanged message or task is the very same
 * object in the next state: src/dashboard/patch.ts then skips it without comparing, and the page
 * keeps its row. Messages are keyed by the tracker's own {@link MessageView} (reused while its
 * status holds) and their delivery state; tasks by id and everything their wire form is made of.
 */
export class WireCache {
  readonly messages = new WeakMap<MessageView, { delivery: string; wire: WireMessage }>();
  /** The last build's tasks (replaced by each build, so deleted tasks go). */
  tasks = new Map<string, { sig: string; wire: WireTask }>();
}
/** Stored text longer than this is cut for the page (bytes of UTF-16, roughly). */
const TEXT_LIMIT = 4096;

/** Inputs of {@link buildState}. */
export interface StateInputs {
  /** The state's version ({@link WireState.version}). */
  version: number;
  /** Wire objects of the previous build (see {@link WireCache}); a fresh one builds everything. */
  cache: WireCache;
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
  const caps = new Map(i.records.filter((r) => r.removedAt === undefined).map((r) => [r.name, r.capabilities ?? []])); // a removed member's kept record is not a member's
  const replied = repliedTo(s.messages);
  const messages = s.messages.slice(-MESSAGE_LIMIT).map((m) => cachedMessage(m, i.cache, i.deliveries, replied));
  return {
    version: i.version,
    team: s.team,
    exists: s.exists,
    ended: s.ended !== undefined,
    description: s.description,
    lead: s.lead,
    actor: i.actor,
    store: i.store,
    host: i.host,
    members: s.members.map((m) => memberOf(m, [...(caps.get(m.name) ?? [])], i.host, i.bridged.has(m.name))),
    tasks: cachedTasks(s.tasks, i),
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

/** `msg_id` + replier of every reply among `messages`. */
function repliedTo(messages: readonly MessageView[]): Set<string> {
  const replied = new Set<string>();
  for (const m of messages) {
    const to = (m.entry as { in_reply_to?: unknown }).in_reply_to;
    if (typeof to === 'string') replied.add(`${to}\u0000${m.entry.from}`);
  }
  return replied;
}

/**
 * Up to `limit` messages of the snapshot just before the one keyed `before` (oldest first); none
 * when no message has that key (it left the history). For the page's "older messages".
 */
export function olderMessages(snapshot: TeamSnapshot, cache: WireCache, deliveries: DeliveryBook, before: string, limit: number): WireMessage[] {
  const end = snapshot.messages.findIndex((m) => m.key === before);
  if (end <= 0) return [];
  const replied = repliedTo(snapshot.messages);
  return snapshot.messages.slice(Math.max(0, end - limit), end).map((m) => cachedMessage(m, cache, deliveries, replied));
}

function cachedMessage(m: MessageView, cache: WireCache, deliveries: DeliveryBook, replied: ReadonlySet<string>): WireMessage {
  const delivery = deliveryOf(m, deliveries, replied);
  const hit = cache.messages.get(m);
  if (hit?.delivery === delivery) return hit.wire;
  const wire = messageOf(m, delivery);
  cache.messages.set(m, { delivery, wire });
  return wire;
}

function cachedTasks(views: readonly TaskView[], i: StateInputs): WireTask[] {
  const next = new Map<string, { sig: string; wire: WireTask }>();
  const out = views.map((v) => {
    const claims = i.claimsOf(v.task.id);
    const sig = JSON.stringify([v.task, v.ready, v.openBlockers, claims]);
    const hit = i.cache.tasks.get(v.task.id);
    const entry = hit?.sig === sig ? hit : { sig, wire: taskOf(v, claims) };
    next.set(v.task.id, entry);
    return entry.wire;
  });
  i.cache.tasks = next;
  return out;
}

/**
 * A member's color as the page may use it in its swatch's style: a CSS color name (Claude Code's
 * palette: `blue`) or a hex color, else none. config.json is written by Claude Code and by hand and
 * keeps any string; the page sets it as inline CSS, so `red;position:fixed;…` would add properties
 * (test/dashboard/browser.test.ts).
 */
export function swatchColor(color: string | undefined): string | undefined {
  return color !== undefined && /^(?:[a-zA-Z]{1,32}|#[0-9a-fA-F]{3,8})$/.test(color) ? color : undefined;
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
    model: knownModel(m.model),
    color: swatchColor(m.color),
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

type Entry = MessageView['entry'] & { msg_id?: string; in_reply_to?: string; reply_expected?: boolean };

function deliveryOf(m: MessageView, deliveries: DeliveryBook, replied: ReadonlySet<string>): string {
  const e = m.entry as Entry;
  return deliveries.stateOf(m.to, m.entry, { read: m.status === 'read', replied: e.msg_id !== undefined && replied.has(`${e.msg_id}\u0000${m.to}`) });
}

function messageOf(m: MessageView, delivery: string): WireMessage {
  const e = m.entry as Entry;
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
