/**
 * Delivery states of a message (issue 11 item 4): **queued** (in its recipient's inbox) →
 * **delivered** (handed out: put into a model request by the runtime, or returned over MCP; the
 * journal's `delivery delivered` event) → **read** (`read: true`, or the journal's `delivery read`)
 * → **replied** (a reply with `in_reply_to` its msg_id reached its sender's inbox). Read from the
 * inboxes and the journal, on every backend; {@link waitForState} waits for one on the team feed.
 */
import { MailroomError } from '../../errors.js';
import type { DeliveryEvent } from '../../protocol/events.js';
import type { InboxEntry } from '../../protocol/inbox.js';
import { entryKey } from '../../domain/entries.js';
import { deadLetterId } from '../../domain/dead-letters.js';
import { findReply } from '../../domain/replies.js';
import type { TeamStore } from '../../store/team-store.js';
import { teamOf, type TeamOptions } from '../context.js';
import { TeamFeed } from '../live/feed.js';
import { findMember } from '../../domain/roster.js';
import { unreachablePresence, unreachableWhy } from '../members/reachability.js';
import { livenessTiming } from '../members/liveness.js';
import { MIN_MSG_ID_PREFIX, idOfPrefix } from './msg-id-prefix.js';
import { timerDelay } from '../../domain/timer-delay.js';

/** The delivery states, in the order a message goes through them. */
export const DELIVERY_STATES = ['queued', 'delivered', 'read', 'replied'] as const;

/** One of {@link DELIVERY_STATES}. */
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/**
 * Where a message can end instead: its recipient left the team with it unread, and it went to the
 * dead letters (src/core/messages/dead-letters.ts). Not on the way to any {@link DeliveryState}.
 */
export const DEAD_LETTERED = 'dead-lettered';

/** Where a message is and when it reached each state (ISO-8601; `true` when reached at an unknown time). */
export interface MessageStatus {
  msg_id: string;
  to: string;
  from: string;
  text: string;
  /** The furthest state reached, or {@link DEAD_LETTERED} (its recipient left with it unread). */
  state: DeliveryState | typeof DEAD_LETTERED;
  /** When each state reached was reached. */
  at: Partial<Record<DeliveryState | typeof DEAD_LETTERED, string | true>>;
  /** For a dead letter: still kept (`true`), or re-sent by `dead-letter retry` (`false`). */
  dead_letter?: boolean | undefined;
  /** The reply's msg_id, once replied. */
  reply?: string | undefined;
}

/** Delivered, read and dead-lettered instants of one entry (ISO-8601). */
export interface Times {
  delivered?: string;
  read?: string;
  deadLettered?: string;
}

/** Delivered/read instants per entry key, from a team's whole journal (one pass). */
export async function deliveryTimes(store: TeamStore, team: string): Promise<Map<string, Times>> {
  const times = new Map<string, Times>();
  let since: Awaited<ReturnType<TeamStore['readEvents']>>['cursor'] | undefined;
  for (;;) {
    const page = await store.readEvents(team, since === undefined ? {} : { since });
    for (const e of page.events) {
      if (e.kind !== 'delivery') continue;
      const d = e as DeliveryEvent;
      const key = `${d.to}\u0000${d.key}`;
      const t = times.get(key) ?? {};
      if (d.state === 'delivered') t.delivered ??= d.at;
      if (d.state === 'read') t.read ??= d.at;
      if (d.state === 'dead-lettered') t.deadLettered ??= d.at;
      // Handed back after it was dead-lettered: a rejoining name got it back unread (redeliverDeadLetters).
      if (d.state === 'released' && t.deadLettered !== undefined) delete t.deadLettered;
      times.set(key, t);
    }
    if (page.events.length === 0 || page.cursor === since) break;
    since = page.cursor;
  }
  return times;
}

/** The status of `entry` in `to`'s inbox, given the journal's {@link deliveryTimes}. */
export async function statusOf(store: TeamStore, team: string, to: string, entry: InboxEntry, times: Map<string, Times>): Promise<MessageStatus> {
  const key = entryKey(entry);
  const t = times.get(`${to}\u0000${key}`) ?? {};
  const at: MessageStatus['at'] = { queued: entry.timestamp };
  // Read with no journalled read: it may be a dead letter whose journal line is not written yet
  // (the store adds the dead letter, marks the entry read, then journals).
  const letter = t.deadLettered !== undefined || (entry.read === true && t.read === undefined) ? (await store.listDeadLetters(team)).find((l) => l.to === to && l.id === deadLetterId(entry)) : undefined;
  if (t.deadLettered !== undefined || letter) {
    at[DEAD_LETTERED] = t.deadLettered ?? letter!.at;
    return { msg_id: key, to, from: entry.from, text: entry.text, state: DEAD_LETTERED, at, dead_letter: letter !== undefined };
  }
  if (t.delivered !== undefined || t.read !== undefined || entry.read === true) at.delivered = t.delivered ?? t.read ?? true;
  if (t.read !== undefined || entry.read === true) at.read = t.read ?? true;
  const reply = entry.msg_id !== undefined ? findReply(await store.readInbox(team, entry.from), entry.msg_id, to) : undefined;
  if (reply) {
    at.delivered ??= true;
    at.read ??= true;
    at.replied = reply.timestamp;
  }
  const state = [...DELIVERY_STATES].reverse().find((s) => at[s] !== undefined) ?? 'queued';
  return { msg_id: key, to, from: entry.from, text: entry.text, state, at, ...(reply ? { reply: reply.msg_id } : {}) };
}

/**
 * The status of the message `msgId`, looked up in every inbox of the team (and its dead letters).
 * `msgId` may be a unique prefix of at least {@link MIN_MSG_ID_PREFIX} characters (the first group
 * of the id `team send` prints is enough); the whole id is matched first.
 * @throws MESSAGE_NOT_FOUND, MESSAGE_AMBIGUOUS (`details.candidates`), INVALID_ARGUMENT (a prefix
 * under {@link MIN_MSG_ID_PREFIX} characters that is no whole id)
 */
export async function messageStatus(options: TeamOptions & { msgId: string }): Promise<MessageStatus> {
  const store = teamOf(options);
  await store.readConfig(options.team);
  const exact = await statusById(store, options.team, options.msgId);
  if (exact) return exact;
  const whole = await idOfPrefix(store, options.team, options.msgId);
  if (whole !== undefined) return (await statusById(store, options.team, whole))!;
  throw new MailroomError('MESSAGE_NOT_FOUND', `No message with msg_id ${options.msgId} (or starting with it) in team "${options.team}"'s inboxes. Each message's msg_id is listed by \`mailroom inbox <member> --status\`.`, {
    details: { team: options.team, msg_id: options.msgId },
  });
}

/** The status of the message whose whole msg_id is `id`, else undefined. */
async function statusById(store: TeamStore, team: string, id: string): Promise<MessageStatus | undefined> {
  for (const inbox of await store.listInboxes(team)) {
    const entry = (await store.readInbox(team, inbox.name)).find((e) => e.msg_id === id);
    if (entry) return statusOf(store, team, inbox.name, entry, await deliveryTimes(store, team));
  }
  // Its inbox may be gone (Claude Code deletes a departed member's files): the dead letter remains.
  const letter = (await store.listDeadLetters(team)).find((l) => l.id === id);
  if (letter) {
    const at: MessageStatus['at'] = { queued: letter.entry.timestamp, [DEAD_LETTERED]: letter.at };
    return { msg_id: letter.id, to: letter.to, from: letter.entry.from, text: letter.entry.text, state: DEAD_LETTERED, at, dead_letter: true };
  }
  return undefined;
}

/** True when `status` has reached `state` (or a later one). */
export function reached(status: MessageStatus, state: DeliveryState): boolean {
  if (status.state === DEAD_LETTERED) return false;
  return DELIVERY_STATES.indexOf(status.state) >= DELIVERY_STATES.indexOf(state);
}

/** How long a wait that reached its state without the state's time waits for the journal line that has it (ms). */
const TIME_GRACE_MS = 1_000;

/**
 * Waits until the message `msgId` reaches `state`, re-reading on the team feed's hints. When the
 * state is reached but its time is not journalled yet, waits up to 1 s more for it (a mailroom
 * reader that journalled the delivery journals the read right after its inbox write); after that,
 * or at once for a reader that journals nothing, the time stays unknown (`true`).
 *
 * A wait that nothing can end ends at once, as `team ask` refuses one (core/members/reachability.ts):
 * when the state is not reached on the first look and its recipient is a member mailroom runs that
 * nothing runs now (presence `stopped`), or whose runtime stopped beating (`dead`), it throws
 * WAIT_UNREACHABLE — the message stays in the inbox, read when the member starts — unless
 * `waitForStart` (the caller starts the member itself while waiting). The same holds for a member
 * whose runtime stops or dies during the wait: it is looked at again at least once a beat
 * (`$MAILROOM_BEAT_MS`, default 5 s; a killed runtime is `dead` once its claim's ttl passed), not
 * only on the first look. Claude Code's own members are waited for.
 * @returns its status then
 * @throws WAIT_TIMEOUT (`details.status`: where it got to), WAIT_UNREACHABLE (`details.presence`,
 * `details.status`), MESSAGE_NOT_FOUND
 */
export async function waitForState(options: TeamOptions & { msgId: string; state: DeliveryState; timeoutMs: number; waitForStart?: boolean | undefined }): Promise<MessageStatus> {
  const feed = await TeamFeed.open(options.root, options.team);
  const until = Date.now() + options.timeoutMs;
  let timeBy: number | undefined;
  // When the recipient's reachability is looked at next (epoch ms): at once, then once a beat.
  const recheckMs = livenessTiming().beatMs;
  let checkAt = options.waitForStart === true ? Infinity : 0;
  try {
    for (;;) {
      const armed = feed.next(() => true);
      try {
        const status = await messageStatus(options);
        if (reached(status, options.state)) {
          // Read by the inbox's flag before the reader's journal line with its time (a mailroom
          // reader marks the entry read, then journals it): when the reader journalled this
          // message's delivery, wait for that line on the feed, at most TIME_GRACE_MS. A reader that
          // journals nothing (Claude Code) leaves the time unknown (true) at once.
          timeBy ??= Math.min(until, Date.now() + TIME_GRACE_MS);
          const left = timeBy - Date.now();
          const journalling = typeof status.at.delivered === 'string';
          if (status.at[options.state] !== true || !journalling || left <= 0) return status;
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([armed.promise, new Promise((resolve) => (timer = setTimeout(resolve, timerDelay(left))))]);
          clearTimeout(timer);
          continue;
        }
        if (status.state === DEAD_LETTERED) {
          throw new MailroomError('WAIT_TIMEOUT', `Message ${options.msgId} to ${status.to} will not reach "${options.state}": ${status.to} left the team and it was dead-lettered. Re-send it with \`mailroom dead-letter retry ${options.msgId} --to <member>\`.`, {
            details: { msg_id: options.msgId, wanted: options.state, status },
          });
        }
        if (Date.now() >= checkAt) {
          await assertSomebodyReads(options, status);
          checkAt = Date.now() + recheckMs;
        }
        const left = until - Date.now();
        if (left <= 0) {
          throw new MailroomError('WAIT_TIMEOUT', `Message ${options.msgId} to ${status.to} did not reach "${options.state}" within ${options.timeoutMs} ms (it is ${status.state}).`, {
            details: { msg_id: options.msgId, wanted: options.state, status },
          });
        }
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([armed.promise, new Promise((resolve) => (timer = setTimeout(resolve, timerDelay(Math.min(left, checkAt - Date.now())))))]);
        clearTimeout(timer);
      } finally {
        armed.cancel();
      }
    }
  } finally {
    await feed.close();
  }
}

const WAITED_FOR: Readonly<Record<DeliveryState, string>> = { queued: 'take', delivered: 'take', read: 'read', replied: 'reply to' };

/**
 * Refuses to wait for a message whose recipient nothing runs (core/members/reachability.ts); the
 * message itself stays sent. @throws WAIT_UNREACHABLE
 */
async function assertSomebodyReads(options: TeamOptions & { msgId: string; state: DeliveryState }, status: MessageStatus): Promise<void> {
  const store = teamOf(options);
  const config = await store.readConfig(options.team);
  const member = findMember(config, status.to);
  if (!member) return;
  const presence = await unreachablePresence(store, config, member);
  if (!presence) return;
  const name = status.to;
  throw new MailroomError(
    'WAIT_UNREACHABLE',
    `Message ${options.msgId} is in ${name}'s inbox, but nobody is running ${name} to ${WAITED_FOR[options.state]} it: ${unreachableWhy(presence)}. ` +
      `It stays there, ${status.state}, until ${name} runs: start it (\`mailroom agent ${name}\`, e.g. in another terminal), then check with \`mailroom message show ${options.msgId}\` — or pass --wait-for-start to keep waiting while you start it elsewhere.`,
    { details: { msg_id: options.msgId, to: name, wanted: options.state, presence: presence.state, status } },
  );
}
