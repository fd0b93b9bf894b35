/**
 * One connection to Redis (./resp-client.ts), shared by a store's commands, and the mapping of
 * connection faults to STORE_UNAVAILABLE.
 *
 * Opening fails fast when the server cannot be reached (a CLI command should not hang). Once
 * connected, the client reconnects by itself with backoff (50 ms doubling to 1 s) for as long
 * as the store is open, so a long-lived store survives a Redis restart. Commands are never
 * queued while disconnected: a call made then waits up to
 * `waitMs` for the connection to come back and fails with STORE_UNAVAILABLE otherwise, before
 * anything was sent. A call whose connection drops while it is in flight also fails with
 * STORE_UNAVAILABLE; its script may or may not have run (a script runs whole or not at all).
 * Appends, task creation and takes retry once by themselves with the same key or lease id
 * (context.ts `retryUnavailable`), which the script replays instead of applying twice.
 *
 * Every call, and opening, has a deadline (`timeoutMs`, default {@link DEFAULT_STORE_TIMEOUT_MS};
 * `--store-timeout`, `$MAILROOM_STORE_TIMEOUT`): a server that accepts connections but does not
 * answer (paused, swapped out, a stuck script) makes the call fail with STORE_UNAVAILABLE
 * (`details.reason: "deadline"`) instead of hanging. Its command may still run later, when the
 * server wakes up: the result of such a call is unknown, as for a dropped connection. A server that
 * refuses a write because it is full (`OOM` with `maxmemory-policy noeviction`) is STORE_FULL.
 */
import { ErrorReply, RespClient } from './resp-client.js';
import { MailroomError } from '../../errors.js';
import { TLS_TIMEOUT_HINT, tlsFailure, tlsOptionsOf } from './tls.js';
import { redactUrl } from './url.js';
import { refusedHandshake } from './refused.js';
import { DEFAULT_STORE_TIMEOUT_MS } from '../store-timeout.js';

/** The store's RESP3 client (./resp-client.ts). */
export type Client = RespClient;

/** A call in flight: its deadline (epoch ms) and what fails it then. */
interface Watch {
  deadline: number;
  expire(): void;
}


/** Options of {@link RedisConnection.open}. */
export interface ConnectionOptions {
  /** Deadline of opening and of every call (ms, default {@link DEFAULT_STORE_TIMEOUT_MS}). */
  timeoutMs?: number;
  /** How long a call waits for a lost connection to come back (ms, default 5 000). */
  waitMs?: number;
  /** How long opening waits for the first connection (ms, default 5 000). */
  connectTimeoutMs?: number;
}

/** A Redis client plus the fault mapping. */
export class RedisConnection {
  private lastError: unknown;
  private closing = false;
  /** Calls in flight and their deadlines ({@link withDeadline}), and the one timer that checks them. */
  private readonly watched = new Set<Watch>();
  private sweep: NodeJS.Timeout | undefined;
  private sweepAt = 0;
  /** True for a `rediss://` connection (a timeout then most likely means a plain server). */
  private tls = false;

  private constructor(
    readonly client: Client,
    /** The URL without its password. */
    readonly location: string,
    private readonly waitMs: number,
    /** Deadline of every call (ms). */
    readonly timeoutMs: number,
    /** Opens another client to the same server without credentials (the doctor's probe of the default user). */
    private readonly anonymous: () => Client,
  ) {}

  /**
   * Connects; a `rediss://` URL uses TLS with the files `$MAILROOM_TLS_CA`/`_CERT`/`_KEY` name (./tls.ts).
   * @throws STORE_UNAVAILABLE naming the URL (without its password; a TLS failure says what to change), INVALID_ARGUMENT (an unreadable TLS file), STORE_REFUSED (the server refused the URL's login or database: ./refused.ts)
   */
  static async open(url: string, options: ConnectionOptions = {}): Promise<RedisConnection> {
    let ready = false;
    const timeoutMs = options.timeoutMs ?? DEFAULT_STORE_TIMEOUT_MS;
    const tls = tlsOptionsOf(url);
    const make = (at: string, reconnect: boolean): Client =>
      new RespClient({
        url: at,
        ...(tls ? { tls } : {}),
        connectTimeout: Math.min(options.connectTimeoutMs ?? 5_000, timeoutMs),
        reconnectStrategy: (retries: number, cause: Error) => (reconnect && ready ? Math.min(50 * 2 ** retries, 1_000) : cause),
      });
    const client = make(url, true);
    const conn = new RedisConnection(client, redactUrl(url), Math.min(options.waitMs ?? 5_000, timeoutMs), timeoutMs, () => make(withoutCredentials(url), false));
    conn.tls = tls !== undefined;
    client.on('error', (err: unknown) => {
      conn.lastError = err;
    });
    try {
      // The TCP connect may succeed on a paused server (the kernel accepts), and the handshake hang.
      await conn.withDeadline(client.connect(), Date.now() + timeoutMs);
    } catch (err) {
      if (client.isOpen) client.destroy();
      if (err instanceof ErrorReply && !isConnectionFault(err)) throw refusedHandshake(conn.location, err);
      throw err instanceof MailroomError ? err : conn.unavailable(err);
    }
    ready = true;
    return conn;
  }

  /** A second connection to the same server (for subscriptions), with the same fault handling. */
  async duplicate(): Promise<Client> {
    let ready = false;
    const sub: Client = this.client.duplicate({ reconnectStrategy: (retries: number, cause: Error) => (ready ? Math.min(50 * 2 ** retries, 1_000) : cause) });
    sub.on('error', () => undefined);
    try {
      await sub.connect();
    } catch (err) {
      throw this.unavailable(err);
    }
    ready = true;
    return sub;
  }

  /**
   * Runs one command against the connection, waiting for a reconnect first when it is down.
   * Plain promise code, no `async`: it runs on every script call (the append's hot path, issue 24
   * item 2), and an async function's state machine cost each writer process more to compile than
   * the call itself (V8's optimizing compiler, in a process's first thousands of calls).
   * @throws STORE_UNAVAILABLE
   */
  call<T>(fn: (client: Client) => Promise<T>): Promise<T> {
    const deadline = Date.now() + this.timeoutMs;
    return this.client.isReady ? this.watchCall(fn, deadline) : this.waitReady().then(() => this.watchCall(fn, deadline));
  }

  /**
   * `fn`'s work under `deadline` ({@link withDeadline}), its failure mapped by {@link callError}:
   * one promise per call (a `.catch` after `withDeadline` was a second one, on every append).
   */
  private watchCall<T>(fn: (client: Client) => Promise<T>, deadline: number): Promise<T> {
    let work: Promise<T>;
    try {
      work = fn(this.client);
    } catch (err) {
      return Promise.reject(this.callError(err));
    }
    return this.watch(work, deadline, this.toCallError);
  }

  /** {@link callError}, made once per connection (not a closure per call on the append's path). */
  private readonly toCallError = (err: unknown): unknown => this.callError(err);

  /** What a call's failure becomes: STORE_UNAVAILABLE (connection), STORE_FULL (OOM), else itself. */
  private callError(err: unknown): unknown {
    if (isConnectionFault(err)) return this.unavailable(err);
    if (isOutOfMemory(err)) return this.full(err);
    return err;
  }

  /**
   * `work`, or STORE_UNAVAILABLE (reason `deadline`) once `deadline` (epoch ms) passes first. The
   * late outcome of `work` is dropped (a reply that comes after is not an unhandled rejection).
   * Calls in flight are watched by one timer per connection, armed for the earliest deadline and
   * re-armed when it fires: a timer of its own per call (a Timeout, its list, its async id) cost a
   * writer process more than the rest of the call's bookkeeping (issue 24 item 2). The timer is
   * unreferenced: it never keeps a process alive (the open socket does, as before).
   */
  withDeadline<T>(work: Promise<T>, deadline: number): Promise<T> {
    return this.watch(work, deadline, asItIs);
  }

  /** `work` under `deadline` ({@link withDeadline}), its failure passed through `mapError`: one promise. */
  private watch<T>(work: Promise<T>, deadline: number, mapError: (err: unknown) => unknown): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const watch: Watch = { deadline, expire: () => reject(this.stalled()) };
      this.watched.add(watch);
      this.armSweep(deadline);
      work.then(
        (value) => {
          this.watched.delete(watch);
          resolve(value);
        },
        (err: unknown) => {
          this.watched.delete(watch);
          reject(mapError(err));
        },
      );
    });
  }

  /** Makes sure the sweep runs by `deadline` (epoch ms). */
  private armSweep(deadline: number): void {
    if (this.sweep !== undefined && this.sweepAt <= deadline) return;
    if (this.sweep !== undefined) clearTimeout(this.sweep);
    this.sweepAt = deadline;
    this.sweep = setTimeout(() => this.runSweep(), Math.max(0, deadline - Date.now()));
    this.sweep.unref();
  }

  /** Fails every watched call whose deadline has passed; re-arms for the earliest one left. */
  private runSweep(): void {
    this.sweep = undefined;
    const now = Date.now();
    let next = Infinity;
    for (const watch of this.watched) {
      if (watch.deadline <= now) {
        this.watched.delete(watch);
        watch.expire();
      } else if (watch.deadline < next) next = watch.deadline;
    }
    if (next !== Infinity) this.armSweep(next);
  }

  /** STORE_UNAVAILABLE for a call that got no answer within the deadline. */
  stalled(): MailroomError {
    const s = this.timeoutMs / 1000;
    return new MailroomError(
      'STORE_UNAVAILABLE',
      `The Redis store at ${this.location} did not answer within ${s} s (it may be paused, overloaded or running a long script). Check it (redis-cli PING), or give it longer with --store-timeout / $MAILROOM_STORE_TIMEOUT, then retry; a change made by this call may still go through when the server wakes up.`,
      { details: { location: this.location, reason: 'deadline', timeoutMs: this.timeoutMs } },
    );
  }

  /** STORE_FULL for an `OOM` refusal: the server reached `maxmemory` and evicts nothing. */
  full(cause: unknown): MailroomError {
    return new MailroomError(
      'STORE_FULL',
      `The Redis store at ${this.location} is full (maxmemory reached; with maxmemory-policy noeviction it refuses writes, and nothing was changed). Give it more memory (redis-cli CONFIG SET maxmemory <bytes>, or 0 for no limit), or free space: delete finished teams (\`mailroom team delete <team>\`) and archive or dead-letter old mail, then retry.`,
      { cause, details: { location: this.location } },
    );
  }

  /**
   * True when a client without credentials is let in (the `default` user is on with no password):
   * anyone who reaches the port can read and change every team. False when it is refused.
   * @throws STORE_UNAVAILABLE when the server cannot be reached at all
   */
  async defaultUserOpen(): Promise<boolean> {
    const probe = this.anonymous();
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      await probe.ping();
      return true;
    } catch (err) {
      if (err instanceof ErrorReply || /NOAUTH|WRONGPASS|NOPERM|authentication/i.test(String(err))) return false;
      throw this.unavailable(err);
    } finally {
      if (probe.isOpen) await probe.close().catch(() => probe.destroy());
    }
  }

  /** STORE_UNAVAILABLE for `cause`, naming the URL without its password. */
  unavailable(cause: unknown): MailroomError {
    const described = describe(cause ?? this.lastError);
    const reason = this.tls && /timeout/i.test(described) ? `${described}; ${TLS_TIMEOUT_HINT}` : described;
    return new MailroomError(
      'STORE_UNAVAILABLE',
      `Cannot reach the Redis store at ${this.location}${reason ? ` (${reason})` : ''}. Start Redis or check --store / $MAILROOM_STORE, then retry; a change whose connection dropped mid-call may have gone through.`,
      { cause, details: { location: this.location } },
    );
  }

  /** Closes the connection (pending calls fail). */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    if (this.sweep !== undefined) clearTimeout(this.sweep);
    this.sweep = undefined;
    if (this.client.isOpen) await this.client.close().catch(() => this.client.destroy());
    else this.client.destroy();
  }

  private async waitReady(): Promise<void> {
    if (!this.client.isOpen || this.closing) throw this.unavailable(this.lastError);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.client.off('ready', onReady);
        reject(this.unavailable(this.lastError));
      }, this.waitMs);
      const onReady = () => {
        clearTimeout(timer);
        resolve();
      };
      this.client.once('ready', onReady);
    });
  }
}

/** True for the server's `OOM command not allowed when used memory > 'maxmemory'` refusal. */
export function isOutOfMemory(err: unknown): boolean {
  return err instanceof ErrorReply && /\bOOM command not allowed/.test(err.message);
}

/** True for errors that mean "the server could not be talked to", not "the server said no". */
export function isConnectionFault(err: unknown): boolean {
  if (err instanceof ErrorReply) return /^(LOADING|MASTERDOWN|TRYAGAIN|BUSY )/.test(err.message);
  if (!(err instanceof Error)) return false;
  const names = ['ClientOfflineError', 'ClientClosedError', 'SocketClosedUnexpectedlyError', 'ConnectionTimeoutError', 'SocketTimeoutError', 'ReconnectStrategyError', 'DisconnectsClientError'];
  if (names.includes(err.constructor.name)) return true;
  const code = (err as NodeJS.ErrnoException).code;
  return typeof code === 'string' && /^(ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EPIPE)$/.test(code);
}

/** `url` without its user name and password. */
function withoutCredentials(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.toString();
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return '';
  const tls = tlsFailure(err);
  if (tls !== undefined) return tls;
  const code = (err as NodeJS.ErrnoException).code;
  if (err.constructor.name === 'ReconnectStrategyError' && err.cause instanceof Error) return describe(err.cause);
  return code ? `${code}` : err.message;
}

/** A failure passed on unchanged ({@link RedisConnection.withDeadline}). */
function asItIs(err: unknown): unknown {
  return err;
}
