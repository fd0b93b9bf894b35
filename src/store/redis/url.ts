/**
 * Redis URLs as `--store` takes them: `redis://[user:pass@]host:port[/db]` or `rediss://…` (TLS).
 */
import { MailroomError } from '../../errors.js';

/**
 * The URL with its password replaced by `***`, for messages and `location` (never print a secret).
 * A string that is not a URL comes back as `(unparseable Redis URL)`.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '(unparseable Redis URL)';
  }
  if (parsed.password !== '') parsed.password = '***';
  return parsed.toString().replace(/\/$/, '');
}

/**
 * The server and database a Redis URL names, `host:port/db` (port 6379 and database 0 when not
 * given), without its scheme, user name or password: URLs that differ only by their credentials
 * name the same server. A string that is not a URL comes back as itself.
 */
export function redisServerKey(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const db = /^\/(\d+)$/.exec(parsed.pathname)?.[1] ?? '0';
  return `${parsed.hostname.toLowerCase()}:${parsed.port || '6379'}/${Number(db)}`;
}

/** Checks the scheme and form of a Redis URL. @throws INVALID_ARGUMENT naming the expected form */
export function assertRedisUrl(url: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  const ok = parsed !== undefined && (parsed.protocol === 'redis:' || parsed.protocol === 'rediss:') && parsed.hostname !== '' && /^\/?(\d+)?$/.test(parsed.pathname);
  if (ok) return;
  throw new MailroomError('INVALID_ARGUMENT', `${JSON.stringify(redactUrl(url))} is not a Redis URL: use redis://[user:password@]host:port[/db], or rediss://… for TLS.`, {
    details: { url: redactUrl(url) },
  });
}
