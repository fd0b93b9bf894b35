/**
 * The Redis backend's entry, loaded by src/store/open.ts with a dynamic `import()` only when a
 * `redis://` or `rediss://` store is selected (so the filesystem default never loads node-redis).
 */
import type { HostStore } from '../host-store.js';
import type { OpenOptions } from '../open.js';
import type { StoreSelection, Stores } from '../selection.js';
import { RedisConnection, type ConnectionOptions } from './connection.js';
import { RedisTeamStore } from './store.js';
import { assertRedisUrl } from './url.js';
import { allowVolatile, storeTimeoutMs } from '../store-timeout.js';
import { warnIfVolatile } from './volatile.js';
import { warnIfPasswordUnchecked } from './unchecked-password.js';
import { grantCommandLine, teamGrant } from './acl.js';

export { RedisTeamStore } from './store.js';
export { redactUrl } from './url.js';

/**
 * Connects to the Redis server of `selection` (every call with the deadline `options.timeoutMs`,
 * default 10 s) and returns its team store (the host store of a
 * Redis selection is the filesystem host store at `selection.hostRoot`). Close it when done.
 * @throws INVALID_ARGUMENT (not a Redis URL), STORE_UNAVAILABLE (server unreachable; the URL named without its password)
 */
export async function openRedisTeamStore(selection: Extract<StoreSelection, { kind: 'redis' }>, options: ConnectionOptions = {}): Promise<RedisTeamStore> {
  assertRedisUrl(selection.url);
  const conn = await RedisConnection.open(selection.url, options);
  return new RedisTeamStore(selection, conn);
}

/** Options of {@link openRedisStores}: those of `openStores`, plus connection tuning (tests shorten the waits). */
export interface RedisOpenOptions extends OpenOptions {
  connection?: ConnectionOptions | undefined;
}

/**
/**
 * What `openStores` (src/store/open.ts) calls for a Redis selection: the Redis team store (deadline
 * `storeTimeoutMs`, else `$MAILROOM_STORE_TIMEOUT`, else 10 s; a once-per-process warning on a
 * server that can lose acknowledged mail unless `allowVolatile`, once per `volatileWarningPeriodMs`
 * on this machine when given; one about a password the server does
 * not check: ./unchecked-password.ts), beside `host`, this machine's
 * host store, which open.ts makes (the filesystem host store at `selection.hostRoot`: pid and
 * command records and agent logs never leave the machine). @throws INVALID_ARGUMENT, STORE_UNAVAILABLE
 */
export async function openRedisStores(selection: Extract<StoreSelection, { kind: 'redis' }>, options: RedisOpenOptions, host: HostStore): Promise<Stores> {
  const timeoutMs = options.connection?.timeoutMs ?? storeTimeoutMs(options.storeTimeoutMs);
  const team = await openRedisTeamStore(selection, { ...options.connection, timeoutMs });
  const onWarning = options.onWarning ?? ((m: string) => process.stderr.write(`${m}\n`));
  await warnIfPasswordUnchecked(selection.url, team.connection, onWarning);
  const period = options.volatileWarningPeriodMs;
  if (!allowVolatile(options.allowVolatile)) await warnIfVolatile(team.connection, onWarning, period === undefined ? undefined : { periodMs: period, firstInPeriod: (key, ms) => host.firstInPeriod(key, ms) });
  return { selection, team, host, close: () => team.close() };
}

/** What {@link grantTeamStore} did. */
export interface GrantResult {
  user: string;
  /** The store URL that logs in as the user (its password in it: shown once). */
  url: string;
  /** The `ACL SETUSER` command (for `--print`: to be run by an operator). */
  command: string;
  /** False with `print`: nothing was changed on the server. */
  applied: boolean;
}

/**
 * `mailroom store grant`: an ACL user fenced into `team`'s keys (./acl.ts) on the server of
 * `selection`, created there unless `print`. The team must exist.
 * @throws TEAM_NOT_FOUND, NOT_PERMITTED (the URL's user may not create users), STORE_UNAVAILABLE
 */
export async function grantTeamStore(selection: Extract<StoreSelection, { kind: 'redis' }>, options: { team: string; member?: string | undefined; print?: boolean | undefined }): Promise<GrantResult> {
  const store = await openRedisTeamStore(selection);
  try {
    await store.readConfig(options.team);
    const grant = teamGrant(selection.url, options.team, options.member);
    if (!options.print) await store.grant(grant);
    return { user: grant.user, url: grant.url, command: grantCommandLine(grant), applied: !options.print };
  } finally {
    await store.close();
  }
}
