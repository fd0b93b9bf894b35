/**
 * A member's state, derived only from what is on disk (and in the journal). Claude Code keeps no
 * liveness signal (#29271), so this is an inference; docs/watch.md "Member state" states the rule:
 *
 * 0. `left` — the member is no longer in the roster (it left the team: listed for its history).
 * 1. `stopped` — the last message it sent is `shutdown_approved`.
 * 2. `waiting` — it sent a permission, sandbox or plan-approval request, after its last idle
 *    notice, that no response (matched by request id) has answered yet.
 * 3. From presence (issue 10) for a member a mailroom runtime runs or ran (it has a reader claim or
 *    a member record): `dead` when its claim missed three beats, `stopped` when nothing holds it
 *    (before rule 2: an open request of a stopped member waits for nobody), else its `working` /
 *    `idle` as its runtime beats it (after rule 2).
 * 3b. `working` / `idle` — `isActive` when the config has it (pane teammates set it at the start and
 *    end of each turn).
 * 4. Otherwise, from messages (in-process teammates never write `isActive`): `idle` when its last
 *    `idle_notification` is not older than both its last other message and the last message
 *    delivered to it (read, or gone from the inbox); `working` when either of those is newer.
 * 5. `unknown` — none of the above (nothing sent or delivered yet).
 */
import type { Presence } from '../../domain/presence.js';
import type { ParsedText } from '../../protocol/structured.js';

/** The states the roster shows. */
export type MemberState = 'working' | 'idle' | 'waiting' | 'stopped' | 'dead' | 'left' | 'unknown';

/** One message as the rule sees it (a {@link MessageView} fits). */
export interface SignalMessage {
  /** The entry; only its ISO-8601 `timestamp` is used. */
  entry: { timestamp: string };
  parsed: ParsedText;
  /** `read` (also an entry its reader removed from the inbox) counts as delivered to the recipient. */
  status: 'unread' | 'read';
}

/** Everything the rule looks at for one member. */
export interface StateSignals {
  inRoster: boolean;
  isActive?: boolean | undefined;
  /** Its presence, for a member a mailroom runtime runs or ran (src/domain/presence.ts); undefined for others (Claude Code's own). */
  presence?: Presence | undefined;
  /** Messages the member sent, oldest first. */
  sent: readonly SignalMessage[];
  /** Messages addressed to the member, oldest first. */
  received: readonly SignalMessage[];
}

/** The derived state and the evidence for it (shown in the member view). */
export interface StateVerdict {
  state: MemberState;
  reason: string;
}

/** Applies the rule in the module comment. */
export function deriveMemberState(s: StateSignals): StateVerdict {
  if (!s.inRoster) return { state: 'left', reason: 'no longer in the roster' };
  const last = s.sent.at(-1);
  if (last && typeOf(last) === 'shutdown_approved') return { state: 'stopped', reason: `approved shutdown at ${last.entry.timestamp}` };
  const p = s.presence;
  if (p?.state === 'dead') return { state: 'dead', reason: `no heartbeat since ${new Date(p.lastBeatAt ?? 0).toISOString()} (process ${p.pid ?? '?'} on ${p.host ?? '?'})` };
  if (p?.state === 'stopped') return { state: 'stopped', reason: 'nothing runs it (no reader claim)' };
  const lastIdle = latest(s.sent.filter((m) => typeOf(m) === 'idle_notification'));
  const pending = openRequest(s, lastIdle);
  if (pending) return { state: 'waiting', reason: `waiting for an answer to ${pending}` };
  if (p?.state === 'working' || p?.state === 'idle') return { state: p.state, reason: `${p.state} (heartbeat of process ${p.pid ?? '?'} on ${p.host ?? '?'})` };
  if (s.isActive === true) return { state: 'working', reason: 'isActive is true' };
  if (s.isActive === false) return { state: 'idle', reason: 'isActive is false' };
  const lastOwn = latest(s.sent.filter((m) => typeOf(m) !== 'idle_notification'));
  const lastDelivered = latest(s.received.filter((m) => m.status !== 'unread'));
  const newer = [lastOwn, lastDelivered].filter((t): t is string => t !== undefined).sort().at(-1);
  if (lastIdle !== undefined && (newer === undefined || lastIdle >= newer)) return { state: 'idle', reason: `idle notice at ${lastIdle}` };
  if (newer !== undefined) return { state: 'working', reason: `activity at ${newer}` };
  return { state: 'unknown', reason: 'nothing sent or delivered yet' };
}

function typeOf(m: SignalMessage): string | undefined {
  return m.parsed.kind === 'structured' ? m.parsed.message.type : undefined;
}

function latest(messages: readonly SignalMessage[]): string | undefined {
  let max: string | undefined;
  for (const m of messages) if (max === undefined || m.entry.timestamp > max) max = m.entry.timestamp;
  return max;
}

/** The id of a request or response message, with which pair it belongs to. */
function requestId(m: SignalMessage): { pair: string; id: string; request: boolean } | undefined {
  if (m.parsed.kind !== 'structured') return undefined;
  const msg = m.parsed.message;
  switch (msg.type) {
    case 'permission_request':
    case 'permission_response':
      return { pair: 'permission request', id: msg.request_id, request: msg.type === 'permission_request' };
    case 'plan_approval_request':
    case 'plan_approval_response':
      return { pair: 'plan approval request', id: msg.requestId, request: msg.type === 'plan_approval_request' };
    case 'sandbox_permission_request':
    case 'sandbox_permission_response':
      return { pair: 'sandbox request', id: msg.requestId, request: msg.type === 'sandbox_permission_request' };
    default:
      return undefined;
  }
}

/** Describes the newest request sent after `since` that has no response yet. */
function openRequest(s: StateSignals, since: string | undefined): string | undefined {
  const answered = new Set(s.received.flatMap((m) => requestId(m) ?? []).filter((r) => !r.request).map((r) => `${r.pair}\u0000${r.id}`));
  const open = s.sent
    .filter((m) => since === undefined || m.entry.timestamp > since)
    .flatMap((m) => requestId(m) ?? [])
    .filter((r) => r.request && !answered.has(`${r.pair}\u0000${r.id}`));
  const req = open.at(-1);
  return req ? `${req.pair} ${req.id}` : undefined;
}
