/**
 * A password given to a Redis server that checks none (issue 23): with the `default` user on and
 * `nopass`, the server accepts any password for it, so a store URL `redis://:secret@host` works —
 * and its owner believes the store is protected while anyone who reaches the port gets in. Choice
 * (docs/decisions.md "A password the server does not check"): warn, once per process and server,
 * rather than refuse — the connection is no less safe than one without the password, and refusing
 * would break a working setup over a setting of the server, not of the command. Only URLs that log
 * in as the default user (a password without a user name, or user `default`) are probed: one more
 * connection without credentials (./connection.ts `defaultUserOpen`); other users' passwords are
 * always checked by the server.
 */
import type { RedisConnection } from './connection.js';

const warned = new Set<string>();

/** True when `url` logs in as the default user with a password. */
export function defaultUserPassword(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.password !== '' && (parsed.username === '' || decodeURIComponent(parsed.username) === 'default');
  } catch {
    return false;
  }
}

/**
 * Warns when `url` gives the default user a password that the server behind `conn` does not
 * check, unless this process already did for that server. A failed probe warns of nothing.
 */
export async function warnIfPasswordUnchecked(url: string, conn: RedisConnection, onWarning: (message: string) => void): Promise<void> {
  if (!defaultUserPassword(url) || warned.has(conn.location)) return;
  warned.add(conn.location);
  if (!(await conn.defaultUserOpen().catch(() => false))) return;
  onWarning(
    `mailroom: warning: the Redis store at ${conn.location} checks no password: its default user is on without one, so the password in the URL is accepted unchecked and anyone who reaches the port reads and changes every team. Fix: set one on the server (\`redis-cli CONFIG SET requirepass <password>\`, or \`requirepass\` in redis.conf) — then the URL's password is checked — or drop it from the URL; give each team its own user with \`mailroom store grant\`.`,
  );
}
