/**
 * A loopback TCP proxy in front of a server, for tests that lose a reply: once armed, it forwards
 * the client's next request but closes the client's connection instead of passing the answer on
 * (the request ran; its reply is lost with the connection).
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

/** A running proxy. */
export interface TcpProxy {
  port: number;
  /**
   * Drop the connection at the next reply from the server; `meanwhile` (if given) runs after the
   * server answered and before the client's connection is closed (so before any retry).
   */
  dropNextReply(meanwhile?: () => Promise<void>): void;
  /** How many replies were dropped so far. */
  dropped(): number;
  /**
   * Runs `hook` on each reply chunk before passing it on (chunks stay in order; a later chunk waits
   * for an earlier one's hook): a test changes the server between a reply and the client's next call.
   */
  beforeReply(hook: ((chunk: Buffer) => Promise<void>) | undefined): void;
  close(): Promise<void>;
}

/** Starts a proxy to 127.0.0.1:`target`. */
export async function startProxy(target: number): Promise<TcpProxy> {
  let armed = false;
  let dropped = 0;
  let meanwhileFn: (() => Promise<void>) | undefined;
  let hookFn: ((chunk: Buffer) => Promise<void>) | undefined;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: target });
    let held: Promise<void> = Promise.resolve();
    sockets.add(client).add(upstream);
    client.on('data', (d) => upstream.write(d));
    upstream.on('data', (d) => {
      if (armed) {
        armed = false;
        dropped++;
        const run = meanwhileFn ?? (() => Promise.resolve());
        meanwhileFn = undefined;
        upstream.destroy();
        void run().finally(() => client.destroy());
        return;
      }
      const hook = hookFn;
      if (hook) {
        held = held.then(() => hook(d)).then(() => void client.write(d), () => void client.destroy());
        return;
      }
      client.write(d);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    dropNextReply: (meanwhile) => {
      armed = true;
      meanwhileFn = meanwhile;
    },
    dropped: () => dropped,
    beforeReply: (hook) => {
      hookFn = hook;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
