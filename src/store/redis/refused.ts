/**
 * A Redis server that answers the connection's handshake with a refusal (issue 23): the store URL
 * asks for something the server will not give — a wrong password or user, a database number past
 * the server's `databases`, a user not allowed the handshake's commands. That is bad input in the
 * URL (STORE_REFUSED, exit 2), not an unreachable server: the message says what the server said
 * and what to change, instead of "Start Redis".
 */
import { MailroomError } from '../../errors.js';

/**
 * STORE_REFUSED for the server's `reply` (an error reply to HELLO/AUTH/SELECT) to the store at
 * `location` (the URL without its password).
 */
export function refusedHandshake(location: string, reply: Error): MailroomError {
  const said = reply.message;
  const db = /^rediss?:\/\/[^/]*\/(\d+)/.exec(location)?.[1] ?? '0';
  const fix = /DB index|invalid DB/i.test(said)
    ? `The server has no database ${db}: database numbers run from 0 to its \`databases\` setting minus one (16 databases unless redis.conf says otherwise). Use one of them in --store / $MAILROOM_STORE (e.g. redis://host:port/0).`
    : /WRONGPASS|invalid password|invalid username/i.test(said)
      ? 'The server refused the user name or password of the URL. Put the right ones in --store / $MAILROOM_STORE (redis://user:password@host:port; the password is the `requirepass` of redis.conf for the default user), or make a user for the team with `mailroom store grant`.'
      : /NOAUTH/i.test(said)
        ? 'The server needs a password and the URL gives none. Add it to --store / $MAILROOM_STORE: redis://:password@host:port (or redis://user:password@host:port).'
        : /NOPERM/i.test(said)
          ? 'The URL\'s user may not run the commands a connection starts with (HELLO, SELECT). Give it those rights (`ACL SETUSER <user> +hello +select`), or use a user made by `mailroom store grant`.'
          : 'Check the store URL in --store / $MAILROOM_STORE against the server\'s settings.';
  return new MailroomError('STORE_REFUSED', `The Redis store at ${location} refused the connection (${said}). ${fix}`, { cause: reply, details: { location, reply: said } });
}
