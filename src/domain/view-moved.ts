/**
 * The refusal of an append made under a view of the team that is no longer the team's: its config
 * (roster), settings (policy, signing) or member records changed between the sender's read and the
 * append's step (src/store/redis/lua/append-messages.lua compares the view stamps). Nothing was
 * stored. The send use case reads the view again and retries (core/messages/send.ts); this error
 * reaches a caller only when the team kept changing through every retry.
 */
import { MailroomError } from '../errors.js';

/**
 * VIEW_MOVED for team `team` (exit 6: retry later).
 * @param attempts how many appends were refused in a row (undefined: one, the store's own answer)
 */
export function viewMoved(team: string, attempts?: number): MailroomError {
  const tried = attempts === undefined ? '' : ` ${attempts} times in a row`;
  return new MailroomError(
    'VIEW_MOVED',
    `Team ${team}'s roster, settings or member records changed between this send's read of them and its append${tried}: nothing was stored. Another process is changing the team right now; send again once it settles.`,
    { details: { team, ...(attempts === undefined ? {} : { attempts }) } },
  );
}
