/**
 * The one place that chooses a backend (issue 15 item 6): turns `--store`, `--root`, `--claude` and
 * the environment into a {@link StoreSelection}, opens it as {@link Stores}, and hands the same
 * selection to a child process. Code above src/store/ receives the opened object and never looks
 * at a path or URL.
 *
 * Precedence: `--store` (a URL), else `$MAILROOM_STORE`, else the filesystem store at `--root`,
 * `--claude`, `$MAILROOM_ROOT` or `~/.mailroom`. With a network store, the root names this
 * machine's own directory (pid, command and log records: the {@link HostStore}).
 *
 * The Redis backend lives in `./redis/index.js`, loaded with a dynamic import only when a `redis://`
 * or `rediss://` selection is opened, so the send path never loads the redis client. That module
 * exports `openRedisStores(selection, options, host): Promise<Stores>`.
 */
import { fileURLToPath } from 'node:url';
import { MailroomError } from '../errors.js';
import type { HostStore } from './host-store.js';
import type { LockOptions } from './fs/lock.js';
import { resolveRoot } from './fs/paths.js';
import type { StoreSelection, Stores } from './selection.js';
import { FsHostStore } from './fs/host-store.js';
import { FsStores } from './fs/stores.js';

export { DEFAULT_STORE_TIMEOUT_MS, parseStoreTimeout } from './store-timeout.js';

/** A selection of the Redis backend. */
export type RedisSelection = Extract<StoreSelection, { kind: 'redis' }>;
/** A selection of the filesystem backend. */
export type FsSelection = Extract<StoreSelection, { kind: 'fs' }>;

/** What {@link resolveSelection} looks at. */
export interface SelectionInput {
  /** `--store`: `redis://[user:pass@]host[:port][/db]`, `rediss://…` (TLS) or `file:///dir`. */
  store?: string | undefined;
  /** `--root`: the filesystem store's root (with a network store: this machine's directory). */
  root?: string | undefined;
  /** `--claude`: Claude Code's own directory (`$CLAUDE_CONFIG_DIR`, else `~/.claude`) as the root. */
  claude?: boolean | undefined;
  /** Environment (default `process.env`): `MAILROOM_STORE`, `MAILROOM_ROOT`, `CLAUDE_CONFIG_DIR`. */
  env?: NodeJS.ProcessEnv | undefined;
}

/** Options of {@link openStores}. */
export interface OpenOptions {
  /** Lock tuning and warnings of the filesystem store (lock takeovers are reported here). */
  lock?: LockOptions | undefined;
  /**
   * Deadline of every call to a network store (ms; default `$MAILROOM_STORE_TIMEOUT`, else 10 000):
   * past it the call fails with STORE_UNAVAILABLE instead of hanging. The filesystem store's
   * calls are bounded by their lock waits instead (LOCK_TIMEOUT).
   */
  storeTimeoutMs?: number | undefined;
  /** Do not warn about a server that can lose acknowledged mail (default `$MAILROOM_ALLOW_VOLATILE`). */
  allowVolatile?: boolean | undefined;
  /**
   * Show the durability warning only if no process on this machine showed it for the same server
   * within this period (ms; noted in the host store). Default: once per process. The CLI's one-shot
   * commands give an hour (src/cli/globals.ts).
   */
  volatileWarningPeriodMs?: number | undefined;
  /** Where the once-per-process durability warning goes (default: stderr). */
  onWarning?: ((message: string) => void) | undefined;
}

/** A module that implements the Redis backend (`./redis/index.js`). */
export interface RedisBackendModule {
  /** Connects the Redis team store; `host` is this machine's host store (always local files). */
  openRedisStores(selection: RedisSelection, options: OpenOptions, host: HostStore): Promise<Stores>;
}

/**
 * Chooses the backend (see the module comment for the precedence).
 * @throws INVALID_ARGUMENT for a store URL that is not `redis://`, `rediss://` or `file://`, or
 * whose host, port or database number is invalid (the message names the accepted forms)
 */
export function resolveSelection(input: SelectionInput = {}): StoreSelection {
  const env = input.env ?? process.env;
  const url = nonEmpty(input.store) ?? nonEmpty(env.MAILROOM_STORE);
  const root = resolveRoot({ root: input.root, claude: input.claude, env });
  if (url === undefined) return { kind: 'fs', root };
  const parsed = parseStoreUrl(url);
  if (parsed.kind === 'fs') return parsed;
  return { kind: 'redis', url: parsed.url, hostRoot: root };
}

/**
 * Opens a selection. The filesystem store holds no open handles; a network store connects here.
 * @throws NOT_SUPPORTED when part of the Redis store is missing from the install; STORE_UNAVAILABLE (network)
 */
export async function openStores(selection: StoreSelection, options: OpenOptions = {}): Promise<Stores> {
  if (selection.kind === 'fs') return new FsStores(selection.root, options.lock);
  const backend = await loadRedisBackend();
  return backend.openRedisStores(selection, options, new FsHostStore(selection.hostRoot, options.lock));
}

/**
 * The filesystem store at `root` without going through a selection: how a library caller (or a
 * test) gets the {@link Stores} every use case takes as `root`. Synchronous and cheap (no handles),
 * but an instance keeps per-process state (the append spool, parse caches): open it once and reuse
 * it, as one process would.
 */
export function openFsStores(root: string, options: OpenOptions = {}): Stores {
  return new FsStores(root, options.lock);
}

/**
 * This machine's host store at the default root (`$MAILROOM_ROOT`, else `~/.mailroom`), for callers
 * that have no stores open and need only what does not depend on the root (the process probe, files
 * the user names). Cheap, no handles.
 */
export function localHostStore(): HostStore {
  return openFsStores(resolveRoot({})).host;
}

/**
 * What core use cases take as `root`: opened {@link Stores}, never a directory (issue 20 item 1 —
 * core does not build a filesystem store per call). The CLI, the runtime and the MCP server open
 * theirs once with {@link openStores}; a library caller opens a filesystem store with
 * {@link openFsStores}`(dir)` and passes the same object to every call.
 */
export type StoreRef = Stores;

/**
 * Command-line arguments that give a child `mailroom` process the same selection (`--root …`).
 * Pass {@link selectionEnv} too: a network store's URL travels in the environment, where a
 * password is not visible to other users in `ps`.
 */
export function selectionArgs(selection: StoreSelection): string[] {
  return ['--root', selection.kind === 'fs' ? selection.root : selection.hostRoot];
}

/**
 * Environment that completes {@link selectionArgs}: `MAILROOM_STORE` set to a network store's URL,
 * or emptied for the filesystem store (so an inherited `$MAILROOM_STORE` does not win).
 */
export function selectionEnv(selection: StoreSelection): Record<string, string> {
  return { MAILROOM_STORE: selection.kind === 'redis' ? selection.url : '' };
}

/**
 * The options that name `selection` in a command a person can paste (`--root /x`, or `--store
 * redis://…` with the password hidden): for suggestions in messages, not for starting processes.
 */
export function selectionHint(selection: StoreSelection): string[] {
  return selection.kind === 'fs' ? ['--root', selection.root] : ['--store', redactUrl(selection.url), '--root', selection.hostRoot];
}

/** A store URL without its password, for messages and `location`. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//***@');
  }
}

const FORMS = 'redis://[user:password@]host[:port][/db], rediss://… for TLS, or file:///directory';

function parseStoreUrl(raw: string): FsSelection | { kind: 'redis'; url: string } {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    // WHATWG URL parsing refuses a port over 65535 as a whole: name the port, not the URL.
    const port = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?(?:\[[^\]]*\]|[^:/]*):(\d+)(?:[/?#]|$)/i.exec(raw)?.[1];
    throw badStore(raw, port !== undefined && Number(port) > 65535 ? `its port ${port} is out of range (1–65535; Redis listens on 6379 by default)` : 'it is not a URL');
  }
  if (u.protocol === 'file:') {
    if (u.host !== '' && u.host !== 'localhost') throw badStore(raw, 'a file URL names a local directory (file:///dir)');
    return { kind: 'fs', root: fileURLToPath(u) };
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw badStore(raw, `the scheme ${u.protocol.replace(/:$/, '')} is not supported`);
  if (u.hostname === '') throw badStore(raw, 'it names no host');
  if (!/^(\/|\/\d+)?$/.test(u.pathname)) throw badStore(raw, `the path ${JSON.stringify(u.pathname)} is not a database number (/0, /1, …)`);
  if (u.search !== '' || u.hash !== '') throw badStore(raw, 'query strings and fragments are not supported');
  return { kind: 'redis', url: raw };
}

function badStore(raw: string, why: string): MailroomError {
  return new MailroomError('INVALID_ARGUMENT', `--store ${JSON.stringify(redactUrl(raw))} is not a store mailroom can open: ${why}. Use ${FORMS} (or $MAILROOM_STORE).`, {
    details: { store: redactUrl(raw) },
  });
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/**
 * The Redis backend, imported only now: the filesystem path never evaluates it (the CLI bundle
 * keeps it behind a lazy wrapper, test/unit/cli/start-up-imports.test.ts). It needs no package of
 * its own (its RESP client is ./redis/resp-client.ts); a module of it missing (a damaged install)
 * is NOT_SUPPORTED.
 */
async function loadRedisBackend(): Promise<RedisBackendModule> {
  try {
    return await import('./redis/index.js');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if ((code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') || !String((err as Error).message).includes('redis')) throw err;
    throw new MailroomError('NOT_SUPPORTED', 'Part of the Redis store is missing from this mailroom install: reinstall mailroom (npm install -g agent-mailroom), or use the filesystem store (--root, $MAILROOM_ROOT).', { cause: err });
  }
}

/** `mailroom store grant`: a Redis ACL user fenced into one team (./grant.ts). */
export type { GrantResult } from './redis/index.js';

/**
 * Creates (or with `print` only describes) the team's ACL user on the Redis server of `selection`.
 * @throws INVALID_ARGUMENT (not a Redis store), TEAM_NOT_FOUND, NOT_PERMITTED, STORE_UNAVAILABLE
 */
export async function grantTeamAccess(selection: StoreSelection, options: { team: string; member?: string | undefined; print?: boolean | undefined }): Promise<import('./redis/index.js').GrantResult> {
  if (selection.kind !== 'redis') {
    throw new MailroomError('INVALID_ARGUMENT', 'store grant makes a Redis ACL user: select the Redis store with --store redis://… (an admin\'s URL) or $MAILROOM_STORE. A filesystem store is fenced by its directory\'s permissions.');
  }
  const { grantTeamStore } = await import('./redis/index.js');
  return grantTeamStore(selection, options);
}
