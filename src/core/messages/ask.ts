/**
 * Request and reply (issue 11 item 1): {@link ask} sends a message that expects a reply and waits
 * for it; {@link reply} answers one. Both are plain inbox entries with mailroom's extra fields
 * (src/domain/replies.ts): the ask's `msg_id` is the correlation id, `reply_expected: true` and
 * `reply_by` (when its asker stops waiting) mark it; the reply carries `in_reply_to` and goes to the
 * ask's sender. Claude Code keeps these fields and ignores them, so an ask to a Claude Code teammate
 * reads as a plain message. Waiting re-reads the asker's inbox on the team feed's hints (core/live/feed.ts),
 * never on a sleep of its own.
 */
import { MailroomError } from '../../errors.js';
import type { Member, TeamConfig } from '../../protocol/config.js';
import type { InboxEntry } from '../../protocol/inbox.js';
import { entryKey } from '../../domain/entries.js';
import type { Presence } from '../../domain/presence.js';
import { unreachablePresence, unreachableWhy } from '../members/reachability.js';
import { askExpired, askOf, findReply, inReplyTo } from '../../domain/replies.js';
import { leadName, requireMember } from '../../domain/roster.js';
import type { TeamStore } from '../../store/team-store.js';
import { isoTime, nowOf, teamOf, type TeamOptions } from '../context.js';
import { TeamFeed, type FeedHint } from '../live/feed.js';
import { sendMessage, type SentMessage } from './send.js';
import { requirePermitted } from '../teams/policy.js';
import { timerDelay } from '../../domain/timer-delay.js';
import { refuseAskingYourself } from '../../domain/ask-self.js';

/** How long an ask waits for its reply by default (ms). */
export const DEFAULT_ASK_TIMEOUT_MS = 60_000;

/** Input of {@link ask}. */
export interface AskOptions extends TeamOptions {
  /** Who is asked (a member name). */
  to: string;
  /** The question. */
  text: string;
  /** The asker (default: the lead); the reply arrives in its inbox. */
  from?: string | undefined;
  summary?: string | undefined;
  /** How long to wait for the reply, ms (default {@link DEFAULT_ASK_TIMEOUT_MS}). */
  timeoutMs?: number | undefined;
  /** A retry with the same key sends nothing new and waits for the first ask's reply. */
  idempotencyKey?: string | undefined;
  /** Stops waiting (the ask stays sent; its deadline still cancels it). */
  signal?: AbortSignal | undefined;
  /** Called once the ask is stored, before the wait (a CLI reports it if the wait is interrupted). */
  onSent?: ((sent: SentMessage) => void) | undefined;
}

/** What {@link ask} got. */
export interface AskResult {
  /** The ask as stored (its `msg_id` is the correlation id). */
  ask: SentMessage;
  /** The reply as stored in the asker's inbox (now marked read: it was handed to the asker). */
  reply: InboxEntry;
  /** How long the wait took, ms. */
  waitedMs: number;
  /** True when the ask was a retry of an idempotency key: the first ask was reused. */
  replayed: boolean;
}

/**
 * Sends `text` to `to` as an ask and waits for its reply; marks the reply read and returns it.
 * An ask to a member that cannot answer (presence `dead`, or `stopped` for a member mailroom runs)
 * fails at once. On timeout the ask is cancelled (its `reply_by` has passed): a reply sent after
 * that still reaches the asker's inbox, marked `late_reply`.
 * @throws INVALID_ARGUMENT (the asker asks itself: nobody would answer, so it is refused before anything is sent), NOT_PERMITTED (the team policy refuses the asker), MEMBER_UNREACHABLE (dead or stopped recipient, before anything is sent), WAIT_TIMEOUT
 * (`details.msg_id`: the cancelled ask), MEMBER_NOT_FOUND, MESSAGE_INVALID, and what sending throws
 */
export async function ask(options: AskOptions): Promise<AskResult> {
  const store = teamOf(options);
  const config = await store.readConfig(options.team);
  const from = options.from ?? leadName(config);
  const recipient = requireMember(config, options.to, 'recipient');
  const sender = requireMember(config, from, 'sender');
  refuseAskingYourself(config.name, sender.name, recipient.name);
  // The policy first: a refused ask says why, whether or not the recipient runs.
  await requirePermitted(options, from, [{ rule: 'message', to: options.to }], config);
  await assertReachable(store, config, recipient);
  const timeoutMs = options.timeoutMs ?? DEFAULT_ASK_TIMEOUT_MS;
  const feed = await TeamFeed.open(options.root, options.team);
  try {
    const start = nowOf(options);
    const sent = await sendAsk(options, from, start + timeoutMs);
    const id = sent.entry.msg_id!;
    options.onSent?.(sent);
    const reply = await waitForReply({ store, feed, team: options.team, asker: from, answerer: options.to, id, until: start + timeoutMs, signal: options.signal, now: () => nowOf(options) });
    if (reply === undefined) {
      throw new MailroomError('WAIT_TIMEOUT', `${options.to} did not reply within ${timeoutMs} ms; the ask (msg_id ${id}) is cancelled. A late reply still arrives in ${from}'s inbox, marked as late (\`mailroom inbox ${from}\`).`, {
        details: { msg_id: id, to: options.to, from, timeoutMs },
      });
    }
    await store.markRead(options.team, from, [entryKey(reply)], { actor: from, now: nowOf(options) });
    return { ask: sent, reply: { ...reply, read: true }, waitedMs: nowOf(options) - start, replayed: sent.replayed === true };
  } finally {
    await feed.close();
  }
}

function sendAsk(options: AskOptions, from: string, replyBy: number): Promise<SentMessage> {
  return sendMessage({
    root: options.root,
    team: options.team,
    now: options.now,
    surface: options.surface,
    to: options.to,
    from,
    text: options.text,
    ...(options.summary !== undefined ? { summary: options.summary } : {}),
    ...(options.idempotencyKey !== undefined ? { idempotencyKey: options.idempotencyKey } : {}),
    extras: { reply_expected: true, reply_by: isoTime(replyBy) },
  });
}

/**
 * Refuses an ask nobody can answer in time (core/members/reachability.ts: a `dead` recipient, or a
 * `stopped` one mailroom runs; Claude Code's own members are asked).
 * @throws MEMBER_UNREACHABLE
 */
async function assertReachable(store: TeamStore, config: TeamConfig, member: Member): Promise<void> {
  const presence = await unreachablePresence(store, config, member);
  if (presence) throw unreachable(config.name, member.name, presence);
}

function unreachable(team: string, name: string, presence: Presence): MailroomError {
  return new MailroomError('MEMBER_UNREACHABLE', `${name} cannot answer: ${unreachableWhy(presence)}. Start it (\`mailroom agent ${name}\`) or leave a message it reads later (\`mailroom team send ${name} "…"\`).`, {
    details: { team, member: name, presence: presence.state },
  });
}

interface ReplyWait {
  store: TeamStore;
  feed: TeamFeed;
  team: string;
  asker: string;
  answerer: string;
  id: string;
  /** Epoch ms. */
  until: number;
  signal?: AbortSignal | undefined;
  now: () => number;
}

/** The reply to `id` in the asker's inbox, re-read on each hint about it; undefined at `until` or on abort. */
async function waitForReply(w: ReplyWait): Promise<InboxEntry | undefined> {
  const relevant = (h: FeedHint) => h.kind === 'tick' || (h.kind === 'inbox' && h.member === w.asker) || h.kind === 'claims';
  for (;;) {
    const armed = w.feed.next(relevant);
    try {
      const found = findReply(await w.store.readInbox(w.team, w.asker), w.id, w.answerer);
      if (found) return found;
      const left = w.until - w.now();
      if (left <= 0 || w.signal?.aborted) return undefined;
      await hintOrTimeout(armed.promise, timerDelay(left), w.signal); // the loop's top ends it at `until` or on abort
    } finally {
      armed.cancel();
    }
  }
}

/** True on the hint, false when `ms` passes or `signal` aborts first. */
function hintOrTimeout(hint: Promise<FeedHint>, ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(false), ms);
    const onAbort = () => done(false);
    signal?.addEventListener('abort', onAbort, { once: true });
    function done(value: boolean) {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(value);
    }
    void hint.then(() => done(true));
  });
}

/** Input of {@link reply}. */
export interface ReplyOptions extends TeamOptions {
  /** The replier: the member the ask was sent to. */
  from: string;
  /** The ask's `msg_id`. */
  inReplyTo: string;
  /** When given: the member the caller means to answer; refused unless it is the ask's sender. */
  to?: string | undefined;
  text: string;
  summary?: string | undefined;
  idempotencyKey?: string | undefined;
  /** More extra entry fields (e.g. `auto_sent`, src/domain/replies.ts). */
  extras?: Readonly<Record<string, unknown>> | undefined;
}

/** What {@link reply} sent. */
export interface SentReply extends SentMessage {
  /** True when the ask's deadline had passed (its asker stopped waiting): the reply is marked `late_reply`. */
  late: boolean;
}

/**
 * Answers the ask `inReplyTo` found in `from`'s inbox (live or archived): the reply goes to the
 * ask's sender with `in_reply_to`, and `late_reply: true` when the ask's `reply_by` has passed.
 * @throws MESSAGE_NOT_FOUND (no message with that msg_id in `from`'s inbox), plus what sending throws
 */
export async function reply(options: ReplyOptions): Promise<SentReply> {
  const askEntry = await findAsk(teamOf(options), options.team, options.from, options.inReplyTo);
  if (options.to !== undefined && options.to !== askEntry.from) {
    throw new MailroomError('INVALID_ARGUMENT', `Message ${options.inReplyTo} came from ${askEntry.from}, not ${options.to}: a reply goes to the member who asked (send to ${askEntry.from}, or leave the msg_id out).`, {
      details: { msg_id: options.inReplyTo, askedBy: askEntry.from, to: options.to },
    });
  }
  const now = nowOf(options);
  const late = askExpired(askOf(askEntry) ?? {}, now);
  const sent = await sendMessage({
    root: options.root,
    team: options.team,
    now: () => now,
    surface: options.surface,
    to: askEntry.from,
    from: options.from,
    text: options.text,
    ...(options.summary !== undefined ? { summary: options.summary } : {}),
    ...(options.idempotencyKey !== undefined ? { idempotencyKey: options.idempotencyKey } : {}),
    extras: { ...options.extras, in_reply_to: options.inReplyTo, ...(late ? { late_reply: true } : {}) },
  });
  return { ...sent, late };
}

/** The message `id` in `member`'s inbox or its archive. @throws MESSAGE_NOT_FOUND */
async function findAsk(store: TeamStore, team: string, member: string, id: string): Promise<InboxEntry> {
  const live = (await store.readInbox(team, member)).find((e) => e.msg_id === id);
  if (live) return live;
  const archived = (await store.readInboxHistory(team, member)).archived.find((e) => e.msg_id === id);
  if (archived) return archived;
  throw new MailroomError('MESSAGE_NOT_FOUND', `No message with msg_id ${id} in ${member}'s inbox: reply to a message you received (its msg_id), or send a new one.`, {
    details: { team, member, msg_id: id },
  });
}

/**
 * The ask from `asker` to `member` that a message from `member` to `asker` answers when it names
 * none: the oldest ask with no reply from `member` yet whose `reply_by` has not passed, else the
 * oldest one past it (that reply is then sent, and reported, as late). Undefined when there is
 * none (the message is a plain one). Both inboxes are read whole — live entries and the archive —
 * so archiving (a mailroom-run teammate archives its inbox right after acknowledging a delivery,
 * before the turn's tool calls run) never unlinks an ask from its reply (issue 21 item 7).
 */
export async function openAskFrom(options: TeamOptions & { member: string; asker: string }): Promise<string | undefined> {
  const store = teamOf(options);
  const asks = (await wholeInbox(store, options.team, options.member))
    .filter((e) => e.from === options.asker)
    .map(askOf)
    .filter((a): a is { id: string; replyBy?: string } => a !== undefined);
  if (asks.length === 0) return undefined;
  const answered = new Set((await wholeInbox(store, options.team, options.asker)).filter((e) => e.from === options.member).map(inReplyTo));
  const open = asks.filter((a) => !answered.has(a.id));
  const now = nowOf(options);
  return (open.find((a) => !askExpired(a, now)) ?? open[0])?.id;
}

/** An inbox's archived entries, then its live ones (oldest first), once per identity. */
async function wholeInbox(store: TeamStore, team: string, member: string): Promise<InboxEntry[]> {
  const [history, live] = await Promise.all([store.readInboxHistory(team, member), store.readInbox(team, member)]);
  const seen = new Set<string>();
  return [...history.archived, ...live].filter((e) => {
    const key = entryKey(e);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
