/**
 * A raw `mailroom mcp` process for fault tests: JSON-RPC frames written by hand to its stdin, its
 * stdout read line by line, so a test can `kill -9` it at any instant of a call and still see every
 * reply the server wrote before it died (what a client received).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { BIN } from './cli.js';

/** One JSON-RPC reply as the server wrote it. */
export interface RawReply {
  id: number;
  result?: { structuredContent?: Record<string, unknown>; isError?: boolean; content?: Array<{ type: string; text?: string }> };
  error?: unknown;
}

/** A running raw server. */
export interface RawMcp {
  proc: ChildProcess;
  /** Sends `tools/call` and returns its request id. */
  call(name: string, args?: Record<string, unknown>): number;
  /** Resolves with the reply to `id` (rejects when the server exits first). */
  reply(id: number): Promise<RawReply>;
  /** Every reply received so far (also after the process died). */
  replies(): RawReply[];
  stderr(): string;
  /** SIGKILL, then waits until its stdout is drained and it has exited. */
  kill9(): Promise<void>;
  /** Closes stdin and waits for a clean exit. */
  close(): Promise<number | null>;
}

/** Starts `mailroom mcp <args>` and completes the initialize handshake. */
export async function startRawMcp(args: readonly string[], env: NodeJS.ProcessEnv): Promise<RawMcp> {
  const proc = spawn(process.execPath, [BIN, 'mcp', ...args], { stdio: ['pipe', 'pipe', 'pipe'], env });
  let buffer = '';
  let stderr = '';
  const got: RawReply[] = [];
  const waiters = new Map<number, { resolve: (r: RawReply) => void; reject: (e: Error) => void }>();
  const closed = new Promise<number | null>((resolve) => proc.on('close', (code) => resolve(code)));
  proc.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line.trim() === '') continue;
      const frame = JSON.parse(line) as RawReply;
      if (typeof frame.id !== 'number') continue;
      got.push(frame);
      waiters.get(frame.id)?.resolve(frame);
      waiters.delete(frame.id);
    }
  });
  proc.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  proc.stdin!.on('error', () => undefined);
  void closed.then(() => {
    for (const w of waiters.values()) w.reject(new Error(`mailroom mcp exited before replying; stderr:\n${stderr}`));
    waiters.clear();
  });
  let next = 1;
  const write = (frame: object) => proc.stdin!.write(`${JSON.stringify(frame)}\n`);
  const reply = (id: number) =>
    new Promise<RawReply>((resolve, reject) => {
      const there = got.find((r) => r.id === id);
      if (there) return resolve(there);
      if (proc.exitCode !== null || proc.signalCode !== null) return reject(new Error(`mailroom mcp is gone; stderr:\n${stderr}`));
      waiters.set(id, { resolve, reject });
    });
  const init = next++;
  write({ jsonrpc: '2.0', id: init, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-fault', version: '0' } } });
  await reply(init);
  write({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return {
    proc,
    call(name, toolArgs = {}) {
      const id = next++;
      write({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: toolArgs } });
      return id;
    },
    reply,
    replies: () => [...got],
    stderr: () => stderr,
    async kill9() {
      proc.kill('SIGKILL');
      await closed;
    },
    async close() {
      proc.stdin!.end();
      return closed;
    },
  };
}
