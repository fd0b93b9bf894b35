/**
 * The one check of a message given to `TeamStore.appendMessages`, on both backends, before anything
 * is written: its recipient is a string and its entry parses with {@link InboxEntrySchema} (Claude
 * Code's inbox entry, reference §3: `from`, `text` and `timestamp` strings — the timestamp ISO-8601
 * with ms, as Claude Code writes it — and the optional fields of their types). A caller of the
 * library (or a JavaScript one, past the types) that gives a number as `timestamp` is refused here
 * rather than stored in a shape Claude Code's reader does not take.
 *
 * The check runs on every append (the hottest path of both stores, issue 24 item 2), so a message
 * is first looked at by `isInboxEntry` (../protocol/inbox.ts: a few `typeof` tests that answer
 * what the schema answers, also used by the files store's readers); what it refuses goes to the
 * schema, which gives the verdict and the error.
 */
import { MailroomError } from '../errors.js';
import { InboxEntrySchema, isInboxEntry } from '../protocol/inbox.js';
import { shownValue } from './shown-value.js';

/**
 * Checks one outgoing message (see the module comment).
 * @throws INVALID_ARGUMENT naming the field, what it must be and what it got (`details.field`)
 */
export function checkOutgoingMessage(m: { to: unknown; entry: unknown }): void {
  if (typeof m.to !== 'string') throw refused('to', 'a string (the recipient\'s name)', m.to);
  if (isInboxEntry(m.entry)) return;
  const parsed = InboxEntrySchema.safeParse(m.entry);
  if (parsed.success) return;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.map(String).join('.') || 'entry';
  const got = issue.path.reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined), m.entry);
  if (field === 'timestamp') throw refused(field, 'an ISO-8601 string, as Claude Code writes it (e.g. "2026-01-01T09:00:00.000Z": `new Date(ms).toISOString()`)', got);
  const expected = 'expected' in issue && typeof issue.expected === 'string' ? `a ${issue.expected}` : 'of its type';
  throw refused(field, field === 'entry' ? 'an object {from, text, timestamp, …}' : expected, got);
}

function refused(field: string, what: string, got: unknown): MailroomError {
  return new MailroomError('INVALID_ARGUMENT', `A message's ${field} must be ${what}; got ${shownValue(got)}. Give it so (an inbox entry is {from, text, timestamp, …} of strings), then retry; nothing was stored.`, { details: { field } });
}
