/**
 * The chaos run's `mailroom bridge` (issue 21 item 8, Redis runs only): the real CLI process
 * bridging a local files root (a second "machine", where local senders write as Claude Code
 * would) with the run's redis-server, in its own process group so the nemesis can kill -9 or
 * SIGSTOP it; a killed bridge is started again (its pid file is then taken over at once,
 * docs/bridge.md). A second bridge started on the same root while one runs must be refused
 * (BRIDGE_RUNNING, exit 4): {@link secondBridge} says whether it was.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/mailroom.js', import.meta.url));

/** A bridge the nemesis acts on. */
export interface ChaosBridge {
  /** The running process (undefined between a kill and its restart). */
  proc(): ChildProcess | undefined;
  /** Resolves once the current process printed `started` (it synced the team at start). */
  ready(): Promise<void>;
  /** Starts a new process (after a kill). */
  restart(): void;
  /** Kills it for good (its group). */
  stop(): Promise<void>;
}

/** What the bridge needs: the local root, the Redis URL, the team, the store deadline (ms). */
export interface BridgeConfig {
  root: string;
  url: string;
  team: string;
  storeTimeoutMs: number;
  verbose: boolean;
}

function spawnBridge(c: BridgeConfig): { proc: ChildProcess; started: Promise<void> } {
  const env = { ...process.env, MAILROOM_ALLOW_VOLATILE: '1', MAILROOM_STORE_TIMEOUT: String(c.storeTimeoutMs) };
  const proc = spawn(process.execPath, [BIN, 'bridge', '--root', c.root, '--team', c.team, '--store', c.url, '--json'], { detached: true, env, stdio: ['ignore', 'pipe', c.verbose ? 'inherit' : 'ignore'] });
  const started = new Promise<void>((resolve) => {
    let out = '';
    proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (/"kind":"started"/.test(out)) resolve();
      out = out.slice(Math.max(0, out.lastIndexOf('\n')));
    });
    proc.once('exit', () => resolve());
  });
  return { proc, started };
}

/** Starts the bridge and waits until it has started. */
export async function startChaosBridge(c: BridgeConfig): Promise<ChaosBridge> {
  let current = spawnBridge(c);
  await current.started;
  let closed = false;
  const bridge: ChaosBridge = {
    proc: () => current.proc,
    ready: () => current.started,
    restart: () => {
      if (!closed) current = spawnBridge(c);
    },
    stop: async () => {
      closed = true;
      await killGroup(current.proc);
    },
  };
  return bridge;
}

/**
 * Starts a second bridge on the same root while one runs: @returns true when it was refused (exited
 * 4, BRIDGE_RUNNING) within 15 s; false when it ran (it is then killed).
 */
export async function secondBridge(c: BridgeConfig): Promise<boolean> {
  const { proc } = spawnBridge(c);
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => resolve(null), 15_000);
    proc.once('exit', (status) => {
      clearTimeout(timer);
      resolve(status);
    });
  });
  if (code === null) await killGroup(proc);
  return code === 4;
}

/** SIGKILLs a process group and waits for its leader to exit. */
export async function killGroup(proc: ChildProcess): Promise<void> {
  if (proc.pid === undefined || proc.exitCode !== null || proc.signalCode !== null) return;
  const gone = new Promise((resolve) => proc.once('exit', resolve));
  try {
    process.kill(-proc.pid, 'SIGCONT');
    process.kill(-proc.pid, 'SIGKILL');
  } catch {
    return;
  }
  await gone;
}
