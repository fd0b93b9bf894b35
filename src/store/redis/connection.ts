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
 */
import { ErrorReply, RespClient } from './resp-client.js';
import { MailroomError } from '../../errors.js';
import { redactUrl } from './url.js';

/** The store's RESP3 client (./resp-client.ts). */
export type Client = RespClient;

/** Options of {@link RedisConnection.open}. */
export interface ConnectionOptions {
  /** How long a call waits for a lost connection to come back (ms, default 5 000). */
  waitMs?: number;
  /** How long opening waits for the first connection (ms, default 5 000). */
  connectTimeoutMs?: number;
}

/** A Redis client plus the fault mapping. */
export class RedisConnection {
  private lastError: unknown;
  private closing = false;

  private constructor(
    readonly client: Client,
    /** The URL without its password. */
    readonly location: string,
    private readonly waitMs: number,
  ) {}

  /** Connects. @throws STORE_UNAVAILABLE naming the URL (without its password) */
  static async open(url: string, options: ConnectionOptions = {}): Promise<RedisConnection> {
    let ready = false;
    const client: Client = new RespClient({
      url,
      connectTimeout: options.connectTimeoutMs ?? 5_000,
      reconnectStrategy: (retries: number, cause: Error) => (ready ? Math.min(50 * 2 ** retries, 1_000) : cause),
    });
    const conn = new RedisConnection(client, redactUrl(url), options.waitMs ?? 5_000);
    client.on('error', (err: unknown) => {
      conn.lastError = err;
    });
    try {
      await client.connect();
    } catch (err) {
      throw conn.unavailable(err);
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
   * @throws STORE_UNAVAILABLE
   */
  async call<T>(fn: (client: Client) => Promise<T>): Promise<T> {
    if (!this.client.isReady) await this.waitReady();
    try {
      return await fn(this.client);
    } catch (err) {
      if (isConnectionFault(err)) throw this.unavailable(err);
      throw err;
    }
  }

  /** STORE_UNAVAILABLE for `cause`, naming the URL without its password. */
  unavailable(cause: unknown): MailroomError {
    const reason = describe(cause ?? this.lastError);
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

/** True for errors that mean "the server could not be talked to", not "the server said no". */
export function isConnectionFault(err: unknown): boolean {
  if (err instanceof ErrorReply) return /^(LOADING|MASTERDOWN|TRYAGAIN|BUSY )/.test(err.message);
  if (!(err instanceof Error)) return false;
  const names = ['ClientOfflineError', 'ClientClosedError', 'SocketClosedUnexpectedlyError', 'ConnectionTimeoutError', 'SocketTimeoutError', 'ReconnectStrategyError', 'DisconnectsClientError'];
  if (names.includes(err.constructor.name)) return true;
  const code = (err as NodeJS.ErrnoException).code;
  return typeof code === 'string' && /^(ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EPIPE)$/.test(code);
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return '';
  const code = (err as NodeJS.ErrnoException).code;
  if (err.constructor.name === 'ReconnectStrategyError' && err.cause instanceof Error) return describe(err.cause);
  return code ? `${code}` : err.message;
}
