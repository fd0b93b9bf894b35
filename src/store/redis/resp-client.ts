/**
 * The Redis store's client: one socket speaking RESP3 (./resp-codec.ts), with exactly what the
 * store uses — commands as string arrays, pipelined (every command issued in the same tick goes
 * out in one write), pub/sub, reconnection — and nothing else. It replaces node-redis, whose
 * `createClient` alone took 160–440 ms on this project's machines (it builds a method for each of
 * several hundred commands), more than a whole one-shot CLI verb should take (docs/decisions.md
 * "A small RESP client").
 *
 * Behaviour the store relies on (src/store/redis/connection.ts):
 * - `connect()` resolves once the socket is up and `HELLO 3` (with `AUTH` from the URL) and
 *   `SELECT` (the URL's database) have been answered; it rejects with the socket's error, a
 *   {@link ConnectionTimeoutError}, or the server's {@link ErrorReply} (wrong password, bad db).
 * - Commands are never queued while disconnected: one issued then rejects with {@link ClientOfflineError}.
 * - When an established connection drops, the commands in flight reject with
 *   {@link SocketClosedUnexpectedlyError}, `error` is emitted, and the client reconnects after
 *   `reconnectStrategy(retries, cause)` ms (an Error instead of a number stops it: `end`), then
 *   subscribes its channels again and emits `ready`.
 * - `close()` waits for the replies in flight, then ends the socket; `destroy()` ends it at once.
 */
import { EventEmitter } from 'node:events';
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import { encodeCommand, ErrorReply, PushReply, RespDecoder } from './resp-codec.js';

export { ErrorReply } from './resp-codec.js';

/** The connection was closed by this side (`close`, `destroy`) before or while a command ran. */
export class ClientClosedError extends Error {
  constructor() {
    super('The client is closed');
    this.name = 'ClientClosedError';
  }
}

/** A command was issued while the client was reconnecting (it was not sent). */
export class ClientOfflineError extends Error {
  constructor() {
    super('The client is offline');
    this.name = 'ClientOfflineError';
  }
}

/** The socket closed while the command was in flight (it may or may not have run). */
export class SocketClosedUnexpectedlyError extends Error {
  constructor(cause?: Error) {
    super('Socket closed unexpectedly', cause ? { cause } : undefined);
    this.name = 'SocketClosedUnexpectedlyError';
  }
}

/** Connecting (socket and handshake) took longer than `connectTimeout`. */
export class ConnectionTimeoutError extends Error {
  constructor(message = 'Connection timeout') {
    super(message);
    this.name = 'ConnectionTimeoutError';
  }
}

/** Options of {@link RespClient}. */
export interface RespClientOptions {
  /** `redis://[user:password@]host[:port][/db]` or `rediss://…` (TLS). */
  url: string;
  /** ms to wait for the socket and the handshake (default 5 000). */
  connectTimeout?: number | undefined;
  /** Delay (ms) before reconnect attempt `retries` (0-based) after `cause`, or an Error to stop. Default: never reconnect. */
  reconnectStrategy?: ((retries: number, cause: Error) => number | Error) | undefined;
  /** TLS options for `rediss://` (CA, client certificate and key: src/store/redis/tls.ts). */
  tls?: ConnectionOptions | undefined;
}

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
}

type Listener = (message: string, channel: string) => void;

/** Size of a plain connection's read buffer (bytes; net's default read size). */
const READ_BUFFER_BYTES = 64 * 1024;

/** One RESP3 connection to a Redis server (see the module comment). Events: `ready`, `error`, `end`. */
export class RespClient extends EventEmitter {
  private socket: Socket | undefined;
  private decoder = new RespDecoder();
  private readonly pending: Pending[] = [];
  private out: Buffer[] = [];
  private flushQueued = false;
  private readonly channels = new Map<string, Listener>();
  private readonly subscribing = new Map<string, Pending[]>();
  private open = false;
  private ready = false;
  private closing: Promise<void> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(readonly options: RespClientOptions) {
    super();
  }

  /** True from `connect()` until `close()`/`destroy()` (or a reconnect strategy giving up). */
  get isOpen(): boolean {
    return this.open;
  }

  /** True while connected and past the handshake: commands can be sent. */
  get isReady(): boolean {
    return this.ready;
  }

  /** A new, unconnected client with the same options (overridden by `overrides`). */
  duplicate(overrides: Partial<RespClientOptions> = {}): RespClient {
    return new RespClient({ ...this.options, ...overrides });
  }

  /** Connects (see the module comment). @throws the socket error, ConnectionTimeoutError or ErrorReply */
  async connect(): Promise<void> {
    this.open = true;
    try {
      await this.establish();
    } catch (err) {
      this.open = false;
      throw err;
    }
  }

  /** Sends one command; resolves to its decoded reply. @throws ErrorReply, ClientOfflineError, ClientClosedError, SocketClosedUnexpectedlyError */
  sendCommand(args: readonly string[]): Promise<unknown> {
    if (!this.open || this.closing) return Promise.reject(new ClientClosedError());
    if (!this.ready) return Promise.reject(new ClientOfflineError());
    return this.queue(args);
  }

  /** SMEMBERS: the set's members. */
  /** PING; resolves with the server's answer. */
  async ping(): Promise<unknown> {
    return this.sendCommand(['PING']);
  }

  async sMembers(key: string): Promise<string[]> {
    return ((await this.sendCommand(['SMEMBERS', key])) as unknown[]).map(String);
  }

  /** ZRANGE key start stop [REV]. */
  async zRange(key: string, start: number, stop: number, options: { REV?: boolean } = {}): Promise<string[]> {
    const args = ['ZRANGE', key, String(start), String(stop)];
    if (options.REV) args.push('REV');
    return ((await this.sendCommand(args)) as unknown[]).map(String);
  }

  /** HGETALL: the hash as an object ({} when missing). */
  async hGetAll(key: string): Promise<Record<string, string>> {
    const reply = await this.sendCommand(['HGETALL', key]);
    if (Array.isArray(reply)) {
      const out: Record<string, string> = {};
      for (let i = 0; i + 1 < reply.length; i += 2) out[String(reply[i])] = String(reply[i + 1]);
      return out;
    }
    return (reply ?? {}) as Record<string, string>;
  }

  /** HGET: the field's value, or null. */
  async hGet(key: string, field: string): Promise<string | null> {
    return (await this.sendCommand(['HGET', key, field])) as string | null;
  }

  /** SUBSCRIBE `channel`; `listener` gets each message. Resolves once the server confirmed it. */
  subscribe(channel: string, listener: Listener): Promise<void> {
    if (!this.open || this.closing) return Promise.reject(new ClientClosedError());
    if (!this.ready) return Promise.reject(new ClientOfflineError());
    this.channels.set(channel, listener);
    return this.confirm('subscribe', channel);
  }

  /** UNSUBSCRIBE `channel`; resolves once the server confirmed it. */
  unsubscribe(channel: string): Promise<void> {
    this.channels.delete(channel);
    if (!this.ready || this.closing) return Promise.resolve();
    return this.confirm('unsubscribe', channel);
  }

  /** Waits for the replies in flight, then closes the connection. */
  close(): Promise<void> {
    this.open = false;
    this.stopRetrying();
    this.closing ??= new Promise<void>((resolve) => {
      const socket = this.socket;
      if (!socket || socket.destroyed) return resolve();
      socket.once('close', () => resolve());
      const end = () => socket.end();
      if (this.pending.length === 0 && this.out.length === 0) end();
      else this.once('drained', end);
    });
    return this.closing;
  }

  /** Closes the connection at once; commands in flight reject with ClientClosedError. */
  destroy(): void {
    this.open = false;
    this.ready = false;
    this.stopRetrying();
    this.socket?.destroy();
    this.failPending(new ClientClosedError());
  }

  private confirm(kind: string, channel: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const key = `${kind} ${channel}`;
      const waiters = this.subscribing.get(key) ?? [];
      waiters.push({ resolve: () => resolve(), reject });
      this.subscribing.set(key, waiters);
      this.write(encodeCommand([kind.toUpperCase(), channel]));
    });
  }

  private queue(args: readonly string[]): Promise<unknown> {
    // Encoded before its reply slot is queued: arguments that cannot be encoded (a JavaScript
    // caller's number) reject this call alone, and every later reply still meets its own call.
    let bytes: Buffer;
    try {
      bytes = encodeCommand(args);
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    return new Promise((resolve, reject) => {
      this.pending.push({ resolve, reject });
      this.write(bytes);
    });
  }

  /** Buffers `bytes`; everything written in one tick leaves in one socket write (pipelining). */
  private write(bytes: Buffer): void {
    this.out.push(bytes);
    if (this.flushQueued) return;
    this.flushQueued = true;
    process.nextTick(() => {
      this.flushQueued = false;
      const chunks = this.out;
      this.out = [];
      if (chunks.length > 0) this.socket?.write(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
  }

  /** Opens the socket and runs the handshake; on success the client is ready. */
  private async establish(): Promise<void> {
    const url = new URL(this.options.url);
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const port = Number(url.port || 6379);
    const timeoutMs = this.options.connectTimeout ?? 5_000;
    const decoder = new RespDecoder();
    // Plain TCP reads into one buffer of this connection's own (net's `onread`), decoded at once:
    // no Buffer per read and no stream push, 'data' event and read-more tick (a writer's append
    // is one read; issue 24 item 2). The decoder copies out what a read leaves undecoded.
    const socket: Socket =
      url.protocol === 'rediss:'
        ? tlsConnect({ ...(this.options.tls ?? {}), host, port, ...(isIP(host) === 0 ? { servername: host } : {}) })
        : netConnect({ host, port, onread: { buffer: Buffer.allocUnsafe(READ_BUFFER_BYTES), callback: (n: number, buf: Uint8Array) => this.onRead(decoder, buf, n) } });
    this.socket = socket;
    this.decoder = decoder;
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 5_000);
    if (url.protocol === 'rediss:') socket.on('data', (chunk: Buffer) => this.onData(decoder, chunk, false));
    // Errors while connecting reject below; later ones are the client's (a close follows them).
    socket.on('error', (err) => {
      if (this.ready && socket === this.socket) this.emit('error', err);
    });
    let timer: NodeJS.Timeout | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        timer = setTimeout(() => {
          reject(new ConnectionTimeoutError());
          socket.destroy();
        }, timeoutMs);
        if (url.protocol === 'rediss:') {
          // A server that does not speak TLS never answers the ClientHello (Redis waits for a
          // line): the handshake gets its own bound, scaled by the TCP connect's round trip.
          const started = Date.now();
          socket.once('connect', () => {
            clearTimeout(timer);
            const bound = tlsHandshakeBoundMs(Date.now() - started, timeoutMs);
            timer = setTimeout(() => {
              reject(new ConnectionTimeoutError(`TLS timeout: no answer to the ClientHello within ${bound} ms of the TCP connect`));
              socket.destroy();
            }, bound);
          });
        }
        socket.once(url.protocol === 'rediss:' ? 'secureConnect' : 'connect', () => {
          // Connected: the handshake that follows is bounded by the caller's deadline (a paused
          // server accepts the connection and never answers: that is a stall, not a refused connect).
          clearTimeout(timer);
          resolve();
        });
        socket.once('error', reject);
        socket.once('close', () => reject(new SocketClosedUnexpectedlyError()));
        socket.on('close', () => this.onClose(socket));
      });
      const hello = ['HELLO', '3'];
      if (url.password !== '' || url.username !== '') hello.push('AUTH', decodeURIComponent(url.username) || 'default', decodeURIComponent(url.password));
      const db = url.pathname.replace(/^\//, '');
      const replies = [this.queue(hello)];
      if (db !== '' && db !== '0') replies.push(this.queue(['SELECT', db]));
      for (const channel of this.channels.keys()) this.write(encodeCommand(['SUBSCRIBE', channel]));
      await Promise.race([
        Promise.all(replies),
        new Promise((_, reject) => {
          socket.once('error', reject);
          socket.once('close', () => reject(new SocketClosedUnexpectedlyError()));
        }),
      ]);
    } catch (err) {
      socket.destroy();
      this.failPending(err instanceof Error ? err : new SocketClosedUnexpectedlyError());
      throw err;
    } finally {
      clearTimeout(timer);
    }
    this.ready = true;
    this.emit('ready');
  }

  /** A plain connection's read of `n` bytes into its buffer `buf`; keeps reading (true). */
  private onRead(decoder: RespDecoder, buf: Uint8Array, n: number): boolean {
    this.onData(decoder, Buffer.from(buf.buffer, buf.byteOffset, n), true);
    return true;
  }

  /** Replies in `chunk` (read into `decoder`'s connection; `reused`: the socket's own read buffer, read again next time). */
  private onData(decoder: RespDecoder, chunk: Buffer, reused: boolean): void {
    if (decoder !== this.decoder) return;
    let values: unknown[];
    try {
      values = decoder.push(chunk, reused);
    } catch (err) {
      this.socket?.destroy(err as Error);
      return;
    }
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      if (value instanceof PushReply) this.onPush(value.items);
      else if (value instanceof ErrorReply && this.pending.length === 0) this.refuseSubscribe(value);
      else {
        const waiter = this.pending.shift();
        if (value instanceof ErrorReply) waiter?.reject(value);
        else waiter?.resolve(value);
      }
    }
    if (this.pending.length === 0) this.emit('drained');
  }

  /**
   * An error no command waits for: the refusal of a SUBSCRIBE (NOPERM: a channel the user's ACL
   * does not grant), whose confirmation would otherwise never come. Rejects the oldest waiting
   * subscription and forgets its channel (not subscribed again on a reconnect).
   */
  private refuseSubscribe(error: ErrorReply): void {
    for (const [key, waiters] of this.subscribing) {
      if (!key.startsWith('subscribe ')) continue;
      const first = waiters.shift();
      if (waiters.length === 0) this.subscribing.delete(key);
      this.channels.delete(key.slice('subscribe '.length));
      first?.reject(error);
      return;
    }
  }

  private onPush(items: unknown[]): void {
    const kind = String(items[0]);
    if (kind === 'message') {
      const channel = String(items[1]);
      this.channels.get(channel)?.(String(items[2]), channel);
      return;
    }
    if (kind === 'subscribe' || kind === 'unsubscribe') {
      const key = `${kind} ${String(items[1])}`;
      const waiters = this.subscribing.get(key);
      const first = waiters?.shift();
      if (waiters?.length === 0) this.subscribing.delete(key);
      first?.resolve(undefined);
    }
  }

  private onClose(socket: Socket): void {
    if (socket !== this.socket) return;
    const wasReady = this.ready;
    this.ready = false;
    this.failPending(this.open ? new SocketClosedUnexpectedlyError() : new ClientClosedError());
    if (!wasReady) return;
    if (!this.open) {
      this.emit('end');
      return;
    }
    const cause = new SocketClosedUnexpectedlyError();
    this.emit('error', cause);
    this.retry(0, cause);
  }

  private retry(retries: number, cause: Error): void {
    const delay = this.options.reconnectStrategy?.(retries, cause) ?? cause;
    if (delay instanceof Error) {
      this.open = false;
      this.emit('end');
      return;
    }
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (!this.open) return;
      this.establish().catch((err: unknown) => {
        const error = err instanceof Error ? err : new Error(String(err));
        if (!this.open) return;
        this.emit('error', error);
        this.retry(retries + 1, error);
      });
    }, delay);
  }

  private stopRetrying(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  private failPending(err: Error): void {
    for (const p of this.pending.splice(0)) p.reject(err);
    for (const waiters of this.subscribing.values()) for (const w of waiters) w.reject(err);
    this.subscribing.clear();
    this.out = [];
    this.emit('drained');
  }
}

/**
 * How long (ms) a TLS handshake may take after a TCP connect that took `connectMs`: four round
 * trips (the handshake needs one or two) plus 300 ms for the server's and this machine's CPU,
 * at most `capMs`. On a local network that is ~300 ms, so a `rediss://` URL aimed at a plain
 * server fails in well under a second instead of waiting out the whole connect timeout.
 */
export function tlsHandshakeBoundMs(connectMs: number, capMs: number): number {
  return Math.min(capMs, 300 + 4 * Math.max(0, connectMs));
}
