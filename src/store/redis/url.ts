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
