/**
 * Request and reply on inbox entries (issue 11 item 1), in extra entry fields that Claude Code
 * keeps and ignores (reference §3: readers ignore unknown fields, writers keep them; docs/format.md
 * "Extra entry fields"):
 *
 * - an **ask** carries `reply_expected: true` (and `reply_by`, the instant its asker stops waiting,
 *   ISO-8601); its `msg_id` is the correlation id;
 * - a **reply** carries `in_reply_to: "<the ask's msg_id>"`, and goes to the ask's sender; one
 *   sent after the ask's `reply_by` (its asker had stopped waiting: the ask was cancelled) also
 *   carries `late_reply: true`, so the asker's inbox reports it as late rather than losing it;
 * - an entry the runtime sent on a teammate's behalf (the final text of a turn that messaged no one,
 *   docs/runtime.md "No lost report") carries `auto_sent: "turn-text"`;
 * - a notice that a message was dead-lettered carries `dead_letter: "<id>"`.
 *
 * Pure; read with type checks, since any writer may put anything in these fields.
 */
import type { InboxEntry } from '../protocol/inbox.js';

/** The extra entry fields of this module, as written. */
export interface ReplyFields {
  reply_expected?: true;
  reply_by?: string;
  in_reply_to?: string;
  late_reply?: true;
  auto_sent?: 'turn-text';
  dead_letter?: string;
}

/** The ask an entry is, when it expects a reply: its correlation id (`msg_id`) and deadline. */
export function askOf(entry: InboxEntry): { id: string; replyBy?: string } | undefined {
  if (entry.reply_expected !== true || typeof entry.msg_id !== 'string') return undefined;
  return typeof entry.reply_by === 'string' ? { id: entry.msg_id, replyBy: entry.reply_by } : { id: entry.msg_id };
}

/** The msg_id of the message this entry answers, if it is a reply. */
export function inReplyTo(entry: InboxEntry): string | undefined {
  const value = entry.in_reply_to;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** True when the runtime sent this entry on its sender's behalf (a turn's final text). */
export function isAutoSent(entry: InboxEntry): boolean {
  return entry.auto_sent === 'turn-text';
}

/** True when the entry is a reply sent after its ask's deadline (`late_reply`). */
export function isLateReply(entry: InboxEntry): boolean {
  return entry.late_reply === true;
}

/** True when `now` (epoch ms) is past the ask's `reply_by` (its asker stopped waiting: cancelled). */
export function askExpired(ask: { replyBy?: string | undefined }, now: number): boolean {
  if (ask.replyBy === undefined) return false;
  const by = Date.parse(ask.replyBy);
  return !Number.isNaN(by) && now > by;
}

/** The reply to ask `id` from `from` among `entries` (an inbox, oldest first), if any. */
export function findReply(entries: readonly InboxEntry[], id: string, from?: string): InboxEntry | undefined {
  return entries.find((e) => inReplyTo(e) === id && (from === undefined || e.from === from));
}
