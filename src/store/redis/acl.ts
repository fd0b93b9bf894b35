/**
 * Fencing a team into one shared Redis (`mailroom store grant`, docs/format.md "Redis store": ACL):
 * a Redis ACL user whose keys are the team's alone — the hash-tagged prefix `mr:{<team>}:*` and
 * the team's hint channels (the team's, and each member's inbox looks, `…:hints:<member>`) — and whose commands are exactly those mailroom's scripts and reads
 * run ({@link GRANTED_COMMANDS}). A machine given that user's URL can run the team's verbs and
 * nothing else: another team's keys, the global team list (`mr:teams`, `mr:deleted`) and every
 * admin command are refused `NOPERM` by the server itself.
 */
import { randomBytes } from 'node:crypto';
import { MailroomError } from '../../errors.js';
import type { RedisConnection } from './connection.js';
import { encodeTeam, hintChannel, teamBase } from './keys.js';

/**
 * The commands a granted user may run: the connection's own (HELLO, AUTH, PING, SELECT, CLIENT
 * SETINFO, QUIT), loading and running the scripts (SCRIPT LOAD, EVALSHA), the hints (SUBSCRIBE,
 * UNSUBSCRIBE), INFO for `doctor`, and every command the Lua scripts call (src/store/redis/lua/*.lua;
 * a test checks the list covers them). Keys are limited separately, to the team's.
 */
export const GRANTED_COMMANDS: readonly string[] = [
  'hello', 'auth', 'ping', 'select', 'client|setinfo', 'client|setname', 'quit', 'reset',
  'script|load', 'evalsha', 'subscribe', 'unsubscribe', 'info',
  'del', 'exists', 'get', 'set', 'incr', 'incrby', 'pexpire', 'rename',
  'hdel', 'hexists', 'hget', 'hgetall', 'hincrby', 'hkeys', 'hmget', 'hset', 'hsetnx',
  'lrange', 'lrem', 'rpush', 'sadd', 'sismember', 'smembers', 'srem',
  'xadd', 'xinfo|stream', 'xrange', 'zadd', 'zcard', 'zrange', 'zrem', 'zscore', 'publish', 'time',
];

/** A granted user: its name, its one-time password, its ACL rules and the store URL that logs in as it. */
export interface TeamGrant {
  user: string;
  /** Generated (24 random bytes, base64url); shown once, stored by Redis only as a SHA-256. */
  password: string;
  /** The `ACL SETUSER <user>` rules, in order. */
  rules: string[];
  /** The store URL with the user and password in it (give it to the team's machines). */
  url: string;
}

/** `s` with Redis glob metacharacters escaped (a team name may hold `*`, which encodeURIComponent keeps). */
function globLiteral(s: string): string {
  return s.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

/**
 * The ACL user for `team` (named `mailroom-<team>`, or `mailroom-<team>-<member>` so each
 * machine's credentials can be revoked alone) on the server of `storeUrl`.
 */
export function teamGrant(storeUrl: string, team: string, member?: string, password: string = randomBytes(24).toString('base64url')): TeamGrant {
  const user = `mailroom-${encodeTeam(team)}${member ? `-${encodeTeam(member)}` : ''}`;
  const rules = ['reset', 'on', `>${password}`, `~${globLiteral(teamBase(team))}*`, `&${globLiteral(hintChannel(team))}`, `&${globLiteral(hintChannel(team))}:*`, '-@all', ...GRANTED_COMMANDS.map((c) => `+${c}`)];
  const url = new URL(storeUrl);
  url.username = user;
  url.password = password;
  return { user, password, rules, url: url.toString().replace(/\/$/, '') };
}

/** The `redis-cli` line that creates the user (for `--print`: an operator runs it). */
export function grantCommandLine(grant: TeamGrant): string {
  const quote = (s: string) => (/^[\w@|:+~&>.-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  return ['ACL', 'SETUSER', grant.user, ...grant.rules].map(quote).join(' ');
}

/**
 * Creates (or replaces: `reset` first) the user on the server behind `conn`.
 * @throws NOT_PERMITTED when the connection's user may not run ACL SETUSER (log in as an admin,
 * or print the command with `--print` for one to run); STORE_UNAVAILABLE
 */
export async function applyGrant(conn: RedisConnection, grant: TeamGrant): Promise<void> {
  let rules = grant.rules;
  for (;;) {
    try {
      await conn.call((c) => c.sendCommand(['ACL', 'SETUSER', grant.user, ...rules]));
      return;
    } catch (err) {
      // A command this server version lacks (CLIENT SETINFO came in 7.2) is left out: nothing can call it there.
      const unknown = /modifier '\+([^']+)': Unknown command/.exec(String(err))?.[1];
      if (unknown !== undefined && rules.includes(`+${unknown}`)) {
        rules = rules.filter((r) => r !== `+${unknown}`);
        continue;
      }
      throw refusedGrant(err, grant);
    }
  }
}

/** The error to report for a refused ACL SETUSER: NOT_PERMITTED when the URL's user lacks the right. */
function refusedGrant(err: unknown, grant: TeamGrant): unknown {
  if (!/NOPERM|NOAUTH/.test(String(err))) return err;
  return new MailroomError('NOT_PERMITTED', `The store's user may not create ACL users (${String(err).slice(0, 120)}): run it with an admin's URL in --store, or add --print and give the printed command to the server's operator. (rule: redis-acl)`, {
    details: { rule: 'redis-acl', user: grant.user },
  });
}
