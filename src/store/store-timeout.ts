/**
 * The store's deadline and durability switches as the environment gives them (issue 21 items 4
 * and 6): `$MAILROOM_STORE_TIMEOUT` (a duration: `10s`, `500ms`, `2m`, or bare milliseconds) and
 * `$MAILROOM_ALLOW_VOLATILE` (`1`, `true`, `yes`). The CLI's `--store-timeout` and
 * `--allow-volatile` win over them.
 */
import { MailroomError } from '../errors.js';

/** Default deadline of one call to a network store (ms): 10 s. */
export const DEFAULT_STORE_TIMEOUT_MS = 10_000;

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000 };

/**
 * Milliseconds of a store-timeout value (`what` names where it came from, for the error).
 * @throws INVALID_ARGUMENT for anything but a positive whole number of milliseconds
 */
export function parseStoreTimeout(value: string, what: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m)?$/i.exec(value.trim());
  const ms = m ? Number(m[1]) * (UNIT_MS[(m[2] ?? 'ms').toLowerCase()] ?? Number.NaN) : Number.NaN;
  if (!Number.isSafeInteger(ms) || ms <= 0) {
    throw new MailroomError('INVALID_ARGUMENT', `${what} ${JSON.stringify(value)} is not a store deadline: give a duration such as 10s, 500ms or 2m (a bare number is milliseconds).`, { details: { value } });
  }
  return ms;
}

/** The deadline to use: `given` (ms), else `$MAILROOM_STORE_TIMEOUT`, else the default. @throws INVALID_ARGUMENT */
export function storeTimeoutMs(given: number | undefined, env: NodeJS.ProcessEnv = process.env): number {
  if (given !== undefined) return given;
  const raw = env.MAILROOM_STORE_TIMEOUT;
  return raw === undefined || raw === '' ? DEFAULT_STORE_TIMEOUT_MS : parseStoreTimeout(raw, '$MAILROOM_STORE_TIMEOUT');
}

/** Whether volatile-server warnings are silenced: `given`, else `$MAILROOM_ALLOW_VOLATILE`. */
export function allowVolatile(given: boolean | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  if (given !== undefined) return given;
  return /^(1|true|yes)$/i.test(env.MAILROOM_ALLOW_VOLATILE ?? '');
}
