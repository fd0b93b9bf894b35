/**
 * `mailroom store grant`: a Redis ACL user fenced into one team's keys (src/store/redis/acl.ts).
 * Only a Redis store has users to grant; the filesystem store is fenced by file permissions.
 */
import { MailroomError } from '../errors.js';
import type { GrantResult } from './redis/index.js';
import type { StoreSelection } from './selection.js';

export type { GrantResult } from './redis/index.js';

/**
 * Creates (or with `print` only describes) the team's ACL user on the Redis server of `selection`.
 * @throws INVALID_ARGUMENT (not a Redis store), TEAM_NOT_FOUND, NOT_PERMITTED, STORE_UNAVAILABLE
 */
export async function grantTeamAccess(selection: StoreSelection, options: { team: string; member?: string | undefined; print?: boolean | undefined }): Promise<GrantResult> {
  if (selection.kind !== 'redis') {
    throw new MailroomError('INVALID_ARGUMENT', 'store grant makes a Redis ACL user: select the Redis store with --store redis://… (an admin\'s URL) or $MAILROOM_STORE. A filesystem store is fenced by its directory\'s permissions.');
  }
  const { grantTeamStore } = await import('./redis/index.js');
  return grantTeamStore(selection, options);
}
