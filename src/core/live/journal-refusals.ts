/**
 * Journalling refused attempts (`refused` events, docs/journal.md) so `mailroom log --actor`
 * answers "who tried what" as well as "who did what". Best effort: a refusal is reported to its
 * caller whether or not its journal line could be written.
 */
import type { Refusal } from '../../domain/events.js';
import { isMailroomError, type MailroomError } from '../../errors.js';
import { opOf, teamOf, type TeamOptions } from '../context.js';

/** Journals `refusal` by `actor`; never throws. */
export async function journalRefusal(options: TeamOptions, actor: string | undefined, refusal: Refusal): Promise<void> {
  await teamOf(options)
    .recordRefusal(options.team, refusal, opOf(options, actor))
    .catch(() => undefined);
}

/** Journals `err` (a NOT_PERMITTED with `details.rule`) as a refusal of `action`, then returns it for throwing. */
export async function journalled(options: TeamOptions, actor: string | undefined, action: string, err: MailroomError, extra: { target?: string | undefined; surface?: string | undefined } = {}): Promise<MailroomError> {
  if (isMailroomError(err)) await journalRefusal(options, actor, { action, rule: String(err.details.rule ?? 'unknown'), code: err.code, message: err.message, ...extra });
  return err;
}
