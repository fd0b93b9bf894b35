/**
 * MEMBER_NOT_FOUND for a name that was a member and left (stopped, shut down, removed): the
 * roster no longer has it, so the store's refusal reads "No recipient named "dave"… Add one with
 * `mailroom team spawn dave`", as for a name never seen — a new user took it for a typo. The
 * team's journal records who left (`member left` events, docs/format.md "Team events"): when the
 * name's last member event is `left`, the refusal says so, when, and then the fix. Read only on
 * such a refusal, never on the way of a call that goes through.
 */
import { MailroomError, isMailroomError } from '../../errors.js';
import type { Cursor, TeamStore } from '../../store/team-store.js';

/** Events read per journal page while looking for the name's last member event. */
const PAGE = 1_000;

/** When `name` last left `team` (the `at` of its last member event, ISO-8601), or undefined when it did not (or rejoined since). */
export async function departedAt(store: TeamStore, team: string, name: string): Promise<string | undefined> {
  let last: { action: string; at: string } | undefined;
  let cursor: Cursor | undefined;
  for (;;) {
    const page = await store.readEvents(team, { since: cursor, limit: PAGE });
    for (const e of page.events) if (e.kind === 'member' && e.name === name && e.action !== 'updated') last = { action: e.action, at: e.at };
    if (page.events.length === 0 || page.reset) break;
    cursor = page.cursor;
  }
  return last?.action === 'left' ? last.at : undefined;
}

/**
 * `err` worded for a member who left, when it is MEMBER_NOT_FOUND (`details.name`) for a name the
 * journal shows leaving `team`: same code and details, plus `details.departedAt`; else `err` as it
 * is. A journal that cannot be read leaves `err` as it is.
 */
export async function explainDeparted(store: TeamStore, team: string, err: unknown): Promise<unknown> {
  if (!isMailroomError(err, 'MEMBER_NOT_FOUND')) return err;
  const name = err.details.name;
  if (typeof name !== 'string') return err;
  const at = await departedAt(store, team, name).catch(() => undefined);
  if (at === undefined) return err;
  const members = Array.isArray(err.details.members) ? (err.details.members as unknown[]).join(', ') : '';
  return new MailroomError(
    'MEMBER_NOT_FOUND',
    `${name} left team "${team}" (at ${at}), so nothing can go to or come from ${name} now.${members ? ` Members: ${members}.` : ''} ` +
      `To bring ${name} back, run \`mailroom team spawn ${name}\` (the mail ${name} had not read when it left is kept as dead letters and comes back to its inbox).`,
    { details: { ...err.details, departedAt: at }, cause: err },
  );
}
