/**
 * A real `redis-server` for tests: started on a free loopback port in its own temp directory,
 * stopped (and its directory removed) by `stop()`. A missing binary fails the test with how to
 * install it; nothing is ever skipped.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { makeTempDir, type TempDir } from './temp-dir.js';

/** Options of {@link startRedis}. */
export interface RedisServerOptions {
  /** AOF with `appendfsync always` (every acknowledged write is on disk); default: no persistence at all. */
  aof?: boolean;
  /** `requirepass` for the default user. */
  password?: string;
  /** More server arguments, e.g. `['--maxmemory-policy', 'allkeys-lru']`. */
  args?: readonly string[];
}

/** A running server. */
export interface RedisServer {
  port: number;
  /** `redis://127.0.0.1:<port>` (with the password when one is set). */
  url: string;
  dir: string;
  /** The server process. */
  proc(): ChildProcess;
  /** Kills the server with SIGKILL (no shutdown save) and waits for it to exit. */
  kill(): Promise<void>;
  /** Starts it again on the same port and directory (an AOF is loaded back). */
  restart(): Promise<void>;
  /** Stops it and removes its directory. */
  stop(): Promise<void>;
}

/** The redis-server binary, or a failure saying how to install it. */
export function redisServerBinary(): string {
  const found = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (found.error || found.status !== 0) throw new Error('redis-server is not installed: install it: apt-get install redis-server (tests of the Redis store run a real server).');
  return 'redis-server';
}

/** Starts a server. */
export async function startRedis(options: RedisServerOptions = {}): Promise<RedisServer> {
  const bin = redisServerBinary();
  const tmp: TempDir = await makeTempDir('mailroom-redis-');
  const argsFor = (port: number) => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', tmp.path, '--save', '', '--logfile', '', '--daemonize', 'no', '--protected-mode', 'no'];
    if (options.aof) args.push('--appendonly', 'yes', '--appendfsync', 'always');
    else args.push('--appendonly', 'no');
    if (options.password) args.push('--requirepass', options.password);
    if (options.args) args.push(...options.args);
    return args;
  };
  // The port is free when freePort closes it, not necessarily when redis-server binds it: another
  // test process's listen(0) or outgoing connection may take it in between. Then pick another.
  const started = async (attempt: number): Promise<{ port: number; args: string[]; proc: ChildProcess }> => {
    const port = await freePort();
    const args = argsFor(port);
    try {
      return { port, args, proc: await launch(bin, args) };
    } catch (err) {
      if (attempt < 5 && err instanceof Error && /Address already in use/.test(err.message)) return started(attempt + 1);
      throw err;
    }
  };
  const first = await started(1);
  const { port, args } = first;
  let proc = first.proc;
  const auth = options.password ? `:${encodeURIComponent(options.password)}@` : '';
  const server: RedisServer = {
    port,
    url: `redis://${auth}127.0.0.1:${port}`,
    dir: tmp.path,
    proc: () => proc,
    kill: async () => {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
      proc.kill('SIGKILL');
      await exited;
    },
    restart: async () => {
      await server.kill();
      proc = await launch(bin, args);
    },
    stop: async () => {
      await server.kill();
      await tmp.cleanup();
    },
  };
  return server;
}

/** Spawns the server and resolves once it says it accepts connections. */
function launch(bin: string, args: readonly string[]): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const proc = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      if (/Ready to accept connections/.test(out)) {
        proc.stdout.off('data', onData);
        proc.stdout.resume();
        resolve(proc);
      }
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', (d: Buffer) => (out += d.toString()));
    proc.once('error', reject);
    // 'close', not 'exit': the output (e.g. why the bind failed) is read to its end by then.
    proc.once('close', (code) => reject(new Error(`redis-server exited (${code}) before it was ready:\n${out}`)));
  });
}

/** A loopback port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}
