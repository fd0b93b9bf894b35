/**
 * The rule that a member cannot ask itself: a message that expects a reply (`reply_expected`, an
 * ask) from a member to that same member would wait for a reply nobody sends. `team ask` refused it
 * first (trial 2, item 5); `team send --wait replied`, which sends the same ask, waited its whole
 * timeout (new-user trial). Both refuse by this one rule: ask.ts before its policy and reachability
 * checks, send.ts for every message marked as an ask.
 */
import { MailroomError } from '../errors.js';

/**
 * Refuses an ask from `from` to `to` (member names as the roster spells them) when they are one
 * member. @throws INVALID_ARGUMENT (`details`: `{ team, member, rule: 'ask-self' }`) naming the fix
 */
export function refuseAskingYourself(team: string, from: string, to: string): void {
  if (from !== to) return;
  throw new MailroomError('INVALID_ARGUMENT', `${from} cannot ask itself: a reply to yourself would never come. Ask another member (\`mailroom team show\` lists them), or leave yourself a note with a plain send, which waits for no reply: \`mailroom team send ${from} "…"\`.`, {
    details: { team, member: from, rule: 'ask-self' },
  });
}
