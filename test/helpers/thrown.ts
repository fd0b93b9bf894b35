/**
 * `thrown(fn)`: runs `fn` and returns the MailroomError it throws; fails the test when it throws
 * nothing or something else.
 */
import { expect } from 'vitest';
import { MailroomError } from '../../src/errors.js';

/** The MailroomError `fn` throws (synchronously). */
export function thrown(fn: () => unknown): MailroomError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(MailroomError);
    return err as MailroomError;
  }
  throw new Error('expected a MailroomError');
}

/** The MailroomError the promise `fn` returns rejects with. */
export async function thrownAsync(fn: () => Promise<unknown>): Promise<MailroomError> {
  try {
    await fn();
  } catch (err) {
    expect(err).toBeInstanceOf(MailroomError);
    return err as MailroomError;
  }
  throw new Error('expected a MailroomError');
}
