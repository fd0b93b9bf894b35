/**
 * An idempotency key used again for a different call. A key names one call: its retries (and twins
 * racing it) replay the first outcome and store nothing (docs/format.md "Idempotency keys"). A call
 * whose message text, sender, recipient (a send to one member) or task subject differs from the
 * first call's is not a retry: answering it with the first outcome would report a message or task
 * as made that never was, so it is refused. Nothing is stored either way.
 */
import { MailroomError } from '../errors.js';

/** What a keyed call asked for, compared with what its key's first call stored. */
export interface KeyedCall {
  /** The message's sender, or the task's creator (names compare without case). */
  from?: string | undefined;
  /** Single-recipient sends: the recipient. A broadcast's recipients follow the roster and are not compared. */
  to?: string | undefined;
  /** The message text, or the task subject. */
  text: string;
}

/**
 * Throws KEY_REUSED (exit 4) when `first` — what the key's first call stored, one item per message
 * (a task: one) — is not the call `now` describes.
 * @param what the call's kind in the message ("send", "broadcast", "task add")
 * @throws KEY_REUSED naming the key, what differs, and the fix (a new key)
 */
export function requireSameCall(key: string, what: string, now: KeyedCall, first: readonly KeyedCall[]): void {
  const same = (a: string | undefined, b: string | undefined) => a === undefined || b === undefined || a.toLowerCase() === b.toLowerCase();
  const differs =
    first.some((f) => f.text !== now.text) ? 'its text'
    : first.some((f) => !same(f.from, now.from)) ? 'its sender'
    : now.to !== undefined && (first.length !== 1 || !same(first[0]!.to, now.to)) ? 'its recipient'
    : undefined;
  if (differs === undefined) return;
  const was = first[0]!;
  const firstSaid = `${was.from === undefined ? '' : `from ${was.from} `}${first.length === 1 && was.to !== undefined ? `to ${was.to} ` : ''}${JSON.stringify(was.text.length > 60 ? `${was.text.slice(0, 57)}...` : was.text)}`;
  throw new MailroomError(
    'KEY_REUSED',
    `Idempotency key ${JSON.stringify(key)} was used in the last 24 h for another ${what} (${firstSaid}); this one differs in ${differs}, so it is not a retry: nothing was stored. Give this ${what} a key of its own.`,
    { details: { key, differs: differs.replace('its ', '') } },
  );
}
