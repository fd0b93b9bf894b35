/**
 * Dead letters (issue 11 item 4; docs/decisions.md "Dead letters"): when a member leaves,
 * {@link deadLetterDeparted} moves its unread messages to the team's dead letters (the store's
 * `deadLetterInbox` transition) and tells each sender that is still in the team, in a plain inbox
 * message Claude Code shows as it is. {@link retryDeadLetters} re-sends them.
 */
import { MailroomError } from '../../errors.js';
import type { TeamConfig } from '../../protocol/config.js';
import { makeInboxEntry, type InboxEntry } from '../../protocol/inbox.js';
import { retryKey, type DeadLetter } from '../../domain/dead-letters.js';
import { messagePreview } from '../live/describe.js';
import { idempotentMsgId } from '../../domain/entries.js';
import type { TeamStore } from '../../store/team-store.js';
import { isoTime, nowOf, opOf, teamOf, type TeamOptions } from '../context.js';

/** Who signs the notice a sender gets (a reserved name: no member can have it). */
export const NOTICE_SENDER = 'system';

/** The notice a sender gets for one of its messages dead-lettered (a plain message; `dead_letter` names it). */
export function noticeText(letter: DeadLetter): string {
  // A structured message is quoted as described (`[plan approved r1]`), not as its stored JSON.
  const preview = messagePreview(letter.entry, 60);
  return (
    `Your message to ${letter.to} was not delivered: ${letter.to} left the team before reading it ("${preview}"). ` +
    `It is kept as dead letter ${letter.id}; re-send it with \`mailroom dead-letter retry ${letter.id} --to <member>\`.`
  );
}

function memberNames(config: TeamConfig): Set<string> {
  return new Set(config.members.map((m) => m.name));
}

/**
 * Moves the unread messages of `name` (no longer in the roster) to the dead letters and tells each
 * sender still in the team (not `name` itself) with one message per dead letter, from
 * {@link NOTICE_SENDER}, carrying `dead_letter: "<id>"`. Nothing happens while `name` is a member.
 * @returns the dead letters added
 * @throws TEAM_NOT_FOUND, FILE_CORRUPT
 */
export async function deadLetterDeparted(options: TeamOptions & { name: string }): Promise<DeadLetter[]> {
  const store = teamOf(options);
  const { value: letters } = await store.deadLetterInbox(options.team, options.name, opOf(options));
  if (letters.length === 0) return letters;
  const members = memberNames(await store.readConfig(options.team));
  const at = isoTime(nowOf(options));
  const notices = letters
    .filter((l) => l.entry.from !== options.name && members.has(l.entry.from))
    .map((l) => ({
      to: l.entry.from,
      entry: makeInboxEntry({ from: NOTICE_SENDER, text: noticeText(l), summary: `Undelivered: ${l.to} left`, timestamp: at, msgId: idempotentMsgId(options.team, l.entry.from, `dead-letter-notice\u0000${l.id}`), extras: { dead_letter: l.id } }),
    }));
  if (notices.length > 0) await store.appendMessages(options.team, notices, opOf(options));
  return letters;
}

/** What {@link retryDeadLetters} did with one dead letter. */
export interface RetriedLetter {
  id: string;
  /** Who it went to. */
  to: string;
  /** The re-sent entry as stored (a new msg_id; `retry_of` names the dead letter), or the original one when redelivered. */
  entry: InboxEntry;
  /** True when the original entry, still in its returned recipient's inbox, became unread again (no copy). */
  redelivered?: true;
}

/** Input of {@link retryDeadLetters}. */
export interface DeadLetterRetryOptions extends TeamOptions {
  /** Dead letter ids; omit with `all`. */
  ids?: readonly string[];
  all?: boolean;
  /** Recipient for dead letters whose original recipient is not back in the team. */
  to?: string;
}

function targetOf(letter: DeadLetter, members: Set<string>, to: string | undefined, team: string): string {
  if (members.has(letter.to)) return letter.to;
  if (to !== undefined && members.has(to)) return to;
  const fix = to === undefined ? `give another recipient with --to <member>` : `"${to}" is not a member either; give one with --to <member>`;
  throw new MailroomError('MEMBER_NOT_FOUND', `Dead letter ${letter.id} was for "${letter.to}", who is not in team "${team}": ${fix}.`, { details: { team, id: letter.id, to: letter.to } });
}

/**
 * Re-sends dead letters to their original recipient when it is back in the team, else to `to`, and
 * removes each from the dead letters. A recipient that is back gets the entry still in its inbox
 * unread again rather than a copy (`redeliverDeadLetters`); one whose entry was archived, or
 * another recipient, gets a copy. Exactly once: the append carries the idempotency key of the
 * dead letter (racing retries store one message) and the removal is one transition. Every target is
 * checked before anything is sent.
 * @throws MESSAGE_NOT_FOUND (an id that is not a dead letter), MEMBER_NOT_FOUND (no recipient), TEAM_NOT_FOUND
 */
export async function retryDeadLetters(options: DeadLetterRetryOptions): Promise<RetriedLetter[]> {
  const store = teamOf(options);
  const members = memberNames(await store.readConfig(options.team));
  const stored = await store.listDeadLetters(options.team);
  const picked = options.all ? stored : (options.ids ?? []).map((id) => pick(stored, id, options.team));
  const planned = picked.map((l) => ({ letter: l, to: targetOf(l, members, options.to, options.team) }));
  const out: RetriedLetter[] = [];
  for (const { letter, to } of planned) out.push(await retryOne(store, options, letter, to));
  return out;
}

function pick(stored: readonly DeadLetter[], id: string, team: string): DeadLetter {
  const letter = stored.find((l) => l.id === id);
  if (letter) return letter;
  // Retried already, or its recipient rejoined (`team spawn` gives a name its dead letters back, unread): `message show` says which.
  throw new MailroomError('MESSAGE_NOT_FOUND', `No dead letter ${id} in team "${team}": it was retried already, or its recipient rejoined and got it back unread (\`mailroom message show ${id}\` shows where it is). List the dead letters with \`mailroom dead-letter list\`.`, { details: { team, id } });
}

async function retryOne(store: TeamStore, options: TeamOptions, letter: DeadLetter, to: string): Promise<RetriedLetter> {
  if (to === letter.to) {
    // Its recipient is back and the entry is still in its inbox: unread again there, never a second copy (issue 23).
    const { value: back } = await store.redeliverDeadLetters(options.team, to, opOf(options));
    if (back.some((l) => l.id === letter.id)) return { id: letter.id, to, entry: { ...letter.entry, read: false }, redelivered: true };
  }
  const entry: InboxEntry = { ...letter.entry, timestamp: isoTime(nowOf(options)), read: false, retry_of: letter.id };
  const { value } = await store.appendMessages(options.team, [{ to, entry }], { ...opOf(options), idempotencyKey: retryKey(letter.id) });
  await store.removeDeadLetter(options.team, letter.id, opOf(options));
  return { id: letter.id, to, entry: value.messages[0]!.entry };
}

/** The team's dead letters, oldest first. @throws TEAM_NOT_FOUND */
export async function listDeadLetters(options: TeamOptions): Promise<DeadLetter[]> {
  return teamOf(options).listDeadLetters(options.team);
}
