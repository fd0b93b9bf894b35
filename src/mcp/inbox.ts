/**
 * Consuming this agent's inbox: the oldest unread messages, handed out under a lease of this
 * server's reader claim and marked read only once the client acknowledged them — by its next
 * read_inbox / wait_for_message or the `ack` tool (./handout.ts; docs/mcp.md "Delivery
 * guarantee") — and waiting for the next one on the team's feed, with no polling. A message handed
 * out again (its server died before the acknowledgement) keeps its msg_id and is marked
 * `redelivered` with its `delivery_count`.
 */
import type { InboxMessage } from '../core/messages/inbox-read.js';
import { askOf, inReplyTo, isLateReply } from '../domain/replies.js';
import { parseMessageText } from '../protocol/structured.js';
import type { HandedLease, HandOutRequest } from './handout.js';
import type { McpSession } from './session.js';
import { guardViews } from './verify.js';

/** A message as an MCP tool returns it. `message` is the parsed protocol object, when `text` is one. */
export interface MessageView {
  from: string;
  text: string;
  timestamp: string;
  summary?: string;
  color?: string;
  msg_id?: string;
  /** Set on a message that asks for a reply: answer it with the `reply` tool (its msg_id). */
  reply_expected?: true;
  /** When its asker stops waiting (ISO-8601); a reply after it is delivered marked late. */
  reply_by?: string;
  /** On a reply: the msg_id of the message it answers. */
  in_reply_to?: string;
  /** On a reply sent after its ask had timed out. */
  late_reply?: true;
  /** Set when this message was handed out before and not acknowledged (e.g. the server that got it died): same msg_id, seen again. */
  redelivered?: true;
  /** With `redelivered`: how many times it has been handed out, this time included (2 or more). */
  delivery_count?: number;
  /** Protocol type (e.g. `shutdown_request`) when `text` is a JSON object with a string `type`. */
  type?: string;
  message?: Record<string, unknown>;
}

/** Unread messages handed out by one call, and how many stay unread after it. */
export interface Consumed {
  messages: MessageView[];
  remaining: number;
}

/** Maps an inbox message to its {@link MessageView}. */
export function viewOfMessage(m: InboxMessage): MessageView {
  const { from, text, timestamp, summary, color, msg_id } = m.entry;
  const view: MessageView = { from, text, timestamp };
  if (summary !== undefined) view.summary = summary;
  if (color !== undefined) view.color = color;
  if (msg_id !== undefined) view.msg_id = msg_id;
  const asked = askOf(m.entry);
  if (asked) Object.assign(view, { reply_expected: true }, asked.replyBy !== undefined ? { reply_by: asked.replyBy } : {});
  const answers = inReplyTo(m.entry);
  if (answers !== undefined) Object.assign(view, { in_reply_to: answers }, isLateReply(m.entry) ? { late_reply: true } : {});
  const p = m.parsed;
  if (p.kind === 'structured') Object.assign(view, { type: p.message.type, message: p.message });
  else if (p.kind !== 'plain') Object.assign(view, { type: p.type, message: p.raw });
  return view;
}

/**
 * Acknowledges `acked` (the leases handed out by calls that had returned when this call arrived:
 * the client received them), then hands out up to `limit` of the oldest unread messages under a new
 * lease, given back if `request` is cancelled (./handout.ts). @throws TEAMMATE_RUNNING (the reader
 * claim was lost), READER_FENCED (taken over meanwhile)
 */
export function consumeUnread(session: McpSession, limit: number, acked: readonly HandedLease[] = session.handOut.delivered(), request: HandOutRequest = {}): Promise<Consumed> {
  return session.consume(async () => {
    const store = session.store.team;
    await store.readConfig(session.team); // TEAM_NOT_FOUND, as before, for a team that is gone
    await session.handOut.acknowledge(acked);
    const lease = await session.handOut.take(limit, request);
    try {
      const messages = lease.entries.map((entry, index): InboxMessage => ({ index, entry, parsed: parseMessageText(entry.text) }));
      const views = messages.map((m, i) => withDeliveries(viewOfMessage(m), lease.deliveries[i] ?? 1));
      // Signed teams: what fails verification is withheld, listed with its reason (mcp/verify.ts).
      return { messages: await guardViews(session, lease.entries, views), remaining: lease.remaining };
    } catch (err) {
      // The client gets an error, not these messages: the next call must not acknowledge them.
      if (lease.id !== '') await session.handOut.giveBack(lease.id);
      throw err;
    }
  });
}

/** Marks a view handed out before (`count` > 1) as a redelivery. */
function withDeliveries(view: MessageView, count: number): MessageView {
  return count > 1 ? { ...view, redelivered: true, delivery_count: count } : view;
}

/**
 * Returns unread messages as soon as there are any, or an empty result after `timeoutMs` (or when
 * the request is cancelled, or the server closes). Each inbox change is a hint to re-read; the hint is armed before every read,
 * so a message landing between the read and the wait is never missed.
 */
export async function waitForUnread(session: McpSession, timeoutMs: number, limit: number, request?: AbortSignal, requestId?: string | number): Promise<Consumed> {
  const signal = request ? AbortSignal.any([request, session.closed]) : session.closed;
  // A server that is closing hands out nothing and starts no new watch.
  if (signal.aborted) return { messages: [], remaining: 0 };
  // What the client had received when it called: acknowledged by the first read below.
  let acked = session.handOut.delivered();
  await session.feed.start();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const hint = session.feed.next((c) => c.kind === 'inbox' && c.member === session.me);
    try {
      if (signal.aborted) return { messages: [], remaining: 0 };
      const got = await consumeUnread(session, limit, acked, { id: requestId, signal: request });
      acked = [];
      const left = deadline - Date.now();
      if (got.messages.length > 0 || left <= 0) return got;
      if (!(await woken(hint.promise, left, signal))) return got;
    } finally {
      hint.cancel();
    }
  }
}

/** True when `hint` fires before `ms` elapse and before `signal` aborts. */
function woken(hint: Promise<unknown>, ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const done = (value: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(value);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(false), ms);
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) onAbort();
    void hint.then(() => done(true));
  });
}
