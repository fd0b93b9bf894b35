/**
 * Tools that consume this agent's inbox: read_inbox and wait_for_message. Both return the oldest
 * unread messages and mark exactly those read, because returning them is when the agent consumed them.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { consumeUnread, waitForUnread } from '../inbox.js';
import { handler } from '../result.js';
import type { McpSession } from '../session.js';

/** Default wait of wait_for_message, in ms: below the 60 s request timeout of common MCP clients. */
export const DEFAULT_WAIT_MS = 30_000;
/** Longest wait_for_message accepts, in ms. */
export const MAX_WAIT_MS = 600_000;
/** Default number of messages one call returns. */
export const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 500;

const limit = z.number().int().min(1).max(MAX_LIMIT).optional().describe(`Most messages to return (default ${DEFAULT_LIMIT}); the rest stay unread`);

/** Registers read_inbox and wait_for_message. */
export function registerInboxTools(server: McpServer, session: McpSession): void {
  const { log } = session;
  server.registerTool(
    'read_inbox',
    {
      description:
        `Return your unread messages (oldest first) and mark them read. Protocol messages come with "type" and the parsed "message"; ` +
        'answer a shutdown_request with shutdown_response. "remaining" counts messages left unread beyond the limit.',
      inputSchema: { limit },
      annotations: { readOnlyHint: false, idempotentHint: false },
    },
    handler(log, 'read_inbox', async (a: { limit?: number | undefined }) => ({ ...(await consumeUnread(session, a.limit ?? DEFAULT_LIMIT)) })),
  );
  server.registerTool(
    'wait_for_message',
    {
      description:
        'Block until a message reaches your inbox, then return the unread messages and mark them read (like read_inbox). ' +
        `Returns immediately if some are already unread; returns {messages: [], timedOut: true} after timeout_ms (default ${DEFAULT_WAIT_MS}).`,
      inputSchema: {
        timeout_ms: z.number().int().min(0).max(MAX_WAIT_MS).optional().describe(`How long to wait, in ms (default ${DEFAULT_WAIT_MS}, max ${MAX_WAIT_MS})`),
        limit,
      },
      annotations: { readOnlyHint: false, idempotentHint: false },
    },
    handler(log, 'wait_for_message', async (a: { timeout_ms?: number | undefined; limit?: number | undefined }, extra: { signal: AbortSignal }) => {
      const got = await waitForUnread(session, a.timeout_ms ?? DEFAULT_WAIT_MS, a.limit ?? DEFAULT_LIMIT, extra.signal);
      return { ...got, timedOut: got.messages.length === 0 };
    }),
  );
}
