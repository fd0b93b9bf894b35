/**
 * TEAM_LOST (issue 21 item 4): a team this store had seen exist is gone, and no `team delete`
 * explains it — its keys were evicted (a `maxmemory-policy` other than `noeviction`), flushed
 * (FLUSHALL, FLUSHDB) or lost with a restart of a server without the append-only file. Reported
 * instead of a silent TEAM_NOT_FOUND, so a running member stops and says why instead of taking the
 * team for never created.
 */
import { MailroomError } from '../../errors.js';
import type { RedisContext } from './context.js';
import { DELETED_KEY } from './keys.js';
import { refusalError } from './reply.js';

/** Slack for clocks of other machines that deleted the team (ms). */
const CLOCK_SLACK_MS = 5 * 60_000;

/**
 * The error for TEAM_NOT_FOUND on `team`, which this store saw exist: TEAM_NOT_FOUND when a
 * deletion of it was recorded since (the store forgets the team), TEAM_LOST otherwise.
 * @throws never (returns the error; STORE_UNAVAILABLE while looking is returned as it is)
 */
export async function lostOrGone(rc: RedisContext, team: string): Promise<MailroomError> {
  const seenAt = rc.known.get(team) ?? Date.now();
  try {
    if (await deletedSince(rc, team, seenAt - CLOCK_SLACK_MS)) {
      rc.known.delete(team);
      return notFound(rc, team);
    }
  } catch (err) {
    if (err instanceof MailroomError) return err;
    throw err;
  }
  return new MailroomError(
    'TEAM_LOST',
    `Team "${team}" was in the Redis store at ${rc.location} and is gone, without a \`mailroom team delete\`: its keys were evicted (maxmemory-policy is not noeviction), flushed (FLUSHALL/FLUSHDB), or lost when a server without the append-only file restarted. Run \`mailroom doctor\` to check the server's settings (appendonly yes, maxmemory-policy noeviction); restore the team from a copy (\`mailroom store copy\`) or create it again.`,
    { details: { team, location: rc.location, seenAt } },
  );
}

async function deletedSince(rc: RedisContext, team: string, since: number): Promise<boolean> {
  const ids = await rc.conn.call((c) => c.zRangeByScore(DELETED_KEY, since, '+inf'));
  for (const id of ids) {
    if ((await rc.conn.call((c) => c.hGet(`${DELETED_KEY}:${id}`, 'team'))) === team) return true;
  }
  return false;
}

function notFound(rc: RedisContext, team: string): MailroomError {
  return refusalError({ code: 'TEAM_NOT_FOUND', details: [] }, { team, location: rc.location });
}
