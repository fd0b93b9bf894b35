/**
 * Dead letters (issue 11 item 4): a message left unread in the inbox of a member who left the team
 * (shutdown approved, team stop, forced stop, dead-member removal) is moved to the team's
 * dead-letter store, and its sender is told. `mailroom dead-letter list|retry` reads and re-sends
 * them. Pure: the shape of a dead letter, its id, and the notice its sender gets.
 */
import { createHash } from 'node:crypto';
import { DeadLetterSchema, type DeadLetter } from '../protocol/dead-letter.js';
import type { InboxEntry } from '../protocol/inbox.js';
import { entryKey, isShutdownRequest, isUnreadEntry } from './entries.js';

export { DeadLetterSchema, type DeadLetter };

/** The id of the dead letter made of `entry`: its msg_id, else a short hash of its identity. */
export function deadLetterId(entry: InboxEntry): string {
  if (typeof entry.msg_id === 'string' && entry.msg_id !== '') return entry.msg_id;
  return `dl-${createHash('sha256').update(entryKey(entry)).digest('hex').slice(0, 12)}`;
}

/**
 * Whether an entry left in a departed member's inbox becomes a dead letter: unread, and not a
 * `shutdown_request` (its member's leaving answered it; a name that joins again has it retired).
 */
export function isDeadLetter(entry: InboxEntry): boolean {
  return isUnreadEntry(entry) && !isShutdownRequest(entry);
}

/** The dead letter of `entry`, unread in `to`'s inbox, dead-lettered at `at` (epoch ms). */
export function deadLetterOf(to: string, entry: InboxEntry, at: number): DeadLetter {
  return { id: deadLetterId(entry), to, entry: { ...entry, read: false }, at: new Date(at).toISOString() };
}

/** The idempotency key of a retry of dead letter `id`: two racing retries store one message. */
export function retryKey(id: string): string {
  return `dead-letter-retry:${id}`;
}
