/**
 * An MCP member for tests: the official SDK `Client` over `StdioClientTransport`, spawning the real
 * `node bin/mailroom.js mcp …`. The server's stderr is collected (never inherited).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BIN } from './cli.js';

/** A connected MCP client and the server's stderr so far. */
export interface McpMember {
  client: Client;
  /** Everything the server wrote to stderr. */
  stderr(): string;
  /** Calls a tool and returns its result (errors come back as `isError` results, not throws). */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** Spawns `mailroom mcp <args>` and connects to it (initialize handshake done). */
export async function startMcpMember(args: readonly string[], env: Record<string, string> = {}): Promise<McpMember> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env: { ...(process.env as Record<string, string>), MAILROOM_ROOT: '/nonexistent-mailroom-root', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'mailroom-test', version: '0.0.0' });
  try {
    await client.connect(transport);
  } catch (err) {
    throw new Error(`mailroom mcp did not start: ${String(err)}\nstderr:\n${stderr}`);
  }
  return {
    client,
    stderr: () => stderr,
    call: async (name, toolArgs = {}) => (await client.callTool({ name, arguments: toolArgs })) as CallToolResult,
    close: () => client.close(),
  };
}

/** The structuredContent of a successful result; throws with the error text otherwise. */
export function dataOf<T = Record<string, unknown>>(result: CallToolResult): T {
  if (result.isError) throw new Error(`tool failed: ${textOf(result)}`);
  return result.structuredContent as T;
}

/** The `{code, message}` of a failed result; throws if the call succeeded. */
export function errorOf(result: CallToolResult): { code: string; message: string; details: Record<string, unknown> } {
  if (!result.isError) throw new Error(`expected an error, got: ${textOf(result)}`);
  return (result.structuredContent as { error: { code: string; message: string; details: Record<string, unknown> } }).error;
}

/** The first text block of a result. */
export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first && first.type === 'text' ? first.text : '';
}
