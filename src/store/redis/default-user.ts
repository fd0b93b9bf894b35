/**
 * `mailroom doctor` on Redis: a server whose `default` user is on without a password lets anyone
 * who reaches its port read and change every team (no ACL fence: `mailroom store grant`). Found by
 * connecting once more without credentials (./connection.ts `defaultUserOpen`), which works
 * wherever ACL commands are not allowed, as on managed services.
 */
import type { StoreIssue } from '../health.js';
import type { RedisConnection } from './connection.js';

/** A `problem` when the default user is open; none otherwise. @throws STORE_UNAVAILABLE */
export async function scanDefaultUser(conn: RedisConnection): Promise<StoreIssue[]> {
  if (!(await conn.defaultUserOpen())) return [];
  return [
    {
      kind: 'server-setting',
      location: conn.location,
      setting: 'default user',
      value: 'on, no password',
      severity: 'problem',
      detail: 'anyone who can reach the port reads and changes every team on this server, without a password.',
      fix: 'give the default user a password or turn it off (`ACL SETUSER default off`, or `requirepass` in redis.conf), and give each team\'s machines their own user: `mailroom store grant --team <team>`.',
    },
  ];
}
