/**
 * An idempotency key names one send or one task creation for 24 h: a retry with the same key
 * stores nothing new and returns the first result. An empty key (an option given without its
 * value, an unset shell variable) would make unrelated calls retries of each other, so it is
 * refused, by both store backends alike.
 */
import { MailroomError } from '../errors.js';
import { shownValue } from './shown-value.js';

/**
 * Checks a caller's idempotency key (undefined: none).
 * @throws MailroomError INVALID_ARGUMENT for a key that is not a string with a non-blank character
 */
export function checkIdempotencyKey(key: unknown): void {
  if (key === undefined || (typeof key === 'string' && key.trim() !== '')) return;
  throw new MailroomError('INVALID_ARGUMENT', `An idempotency key must be a non-empty string; got ${shownValue(key)}. Give the key that names this send or task (--idempotency-key <key>), or leave it out.`, {
    details: { got: typeof key },
  });
}
