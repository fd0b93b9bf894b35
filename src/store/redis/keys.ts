/**
 * Key names of the Redis store (docs/format.md "Redis store"). TypeScript names only the roots;
 * the scripts build every key of a team from its base prefix.
 */

/** Global set of team names. */
export const TEAMS_KEY = 'mr:teams';
/** Global sorted set of deleted teams (score: deletedAt, epoch ms); each has a hash `mr:deleted:<id>`. */
export const DELETED_KEY = 'mr:deleted';

/** A team name as it appears in keys: percent-encoded (so `{`, `}`, `:` cannot appear). */
export function encodeTeam(team: string): string {
  return encodeURIComponent(team);
}

/** The team's base prefix `mr:{<team>}:`; its braces are the hash tag that keeps a team in one slot. */
export function teamBase(team: string): string {
  return `mr:{${encodeTeam(team)}}:`;
}

/** The pub/sub channel the team's scripts publish hints on. */
export function hintChannel(team: string): string {
  return `${teamBase(team)}hints`;
}

/**
 * The pub/sub channel of one member's inbox looks: append-messages.lua publishes there what the
 * member's take would hand out after the append (./inbox-looks.ts), for that member's subscription
 * alone. The member name is as stored (no encoding: a channel is not a key, and SUBSCRIBE takes it literally).
 */
export function inboxLookChannel(team: string, member: string): string {
  return `${hintChannel(team)}:${member}`;
}
