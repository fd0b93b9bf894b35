/**
 * How many members a team has, as `watch` heads its screen and its plain first line (issue 23):
 * the members on the roster now; those that left (still listed, dimmed, for their history) are
 * counted apart, so the header does not count a departed member as one of the team.
 */
import { plural } from '../text/plural.js';
import type { MemberView } from './snapshot.js';

/** E.g. `3 members`, or `3 members (1 left)` when members that left are listed too. */
export function memberCount(members: readonly Pick<MemberView, 'inRoster'>[]): string {
  const current = members.filter((m) => m.inRoster).length;
  const left = members.length - current;
  return `${plural(current, 'member')}${left > 0 ? ` (${left} left)` : ''}`;
}
