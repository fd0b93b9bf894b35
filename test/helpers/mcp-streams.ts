/**
 * An MCP server built in the test process (e.g. over a catalogue with test-only rules), reached by
 * the official SDK `Client` through newline-delimited JSON-RPC on a pair of streams: the server's
 * own `StdioServerTransport` on one end, a stream client transport using the SDK's framing on the
 * other. The same bytes as `mailroom mcp` on stdio, without a child process.
 */
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The client half: reads frames from `input`, writes frames to `output`. */
class StreamClientTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly buffer = new ReadBuffer();

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      try {
        for (let m = this.buffer.readMessage(); m !== null; m = this.buffer.readMessage()) this.onmessage?.(m);
      } catch (err) {
        this.onerror?.(err as Error);
      }
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.output.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    this.output.end();
    this.onclose?.();
  }
}

/** A connected client of `server`. */
export interface StreamMcpClient {
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** Connects `server` and an SDK client over streams (initialize handshake done). */
export async function connectOverStreams(server: McpServer): Promise<StreamMcpClient> {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  await server.connect(new StdioServerTransport(toServer, toClient));
  const client = new Client({ name: 'mailroom-test', version: '0.0.0' });
  await client.connect(new StreamClientTransport(toClient, toServer));
  return {
    client,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}
