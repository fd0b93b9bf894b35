/**
 * read_inbox and wait_for_message: consuming the caller's inbox over MCP. Both return the oldest
 * unread messages and mark exactly those read, because returning them is when the agent consumed
 * them. The runtime has no such tools: it delivers unread messages before every model call.
 */
import { z } from 'zod';
import { defineTool, serviceOf } from '../entry.js';

/** Default wait of wait_for_message, in ms: below the 60 s request timeout of common MCP clients. */
export const DEFAULT_WAIT_MS = 30_000;
/** Longest wait_for_message accepts, in ms. */
export const MAX_WAIT_MS = 600_000;
/** Default number of messages one call returns. */
export const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 500;

const limit = z.number().int().min(1).max(MAX_LIMIT).optional().describe(`Most messages to return (default ${DEFAULT_LIMIT}); the rest stay unread`);

/** read_inbox. */
export const readInboxTool = defineTool({
  id: 'read_inbox',
  names: { mcp: 'read_inbox' },
  description: (d) =>
    'Return your unread messages (oldest first) and mark them read. Protocol messages come with "type" and the parsed "message"; ' +
    `answer a shutdown_request with ${d.tool('shutdown_response') ?? 'a shutdown_response'}. "remaining" counts messages left unread beyond the limit.`,
  input: z.object({ limit }),
  requires: ['inbox'],
  hints: { readOnly: false, idempotent: false },
  run: async (input, ctx) => ({ ...(await serviceOf(ctx, 'inbox').take(input.limit ?? DEFAULT_LIMIT)) }),
});

/** wait_for_message. */
export const waitForMessageTool = defineTool({
  id: 'wait_for_message',
  names: { mcp: 'wait_for_message' },
  description: (d) =>
    `Block until a message reaches your inbox, then return the unread messages and mark them read (like ${d.tool('read_inbox') ?? 'reading the inbox'}). ` +
    `Returns immediately if some are already unread; returns {messages: [], timedOut: true} after ${d.arg('timeoutMs')} (default ${DEFAULT_WAIT_MS}).`,
  input: z.object({
    timeoutMs: z.number().int().min(0).max(MAX_WAIT_MS).optional().describe(`How long to wait, in ms (default ${DEFAULT_WAIT_MS}, max ${MAX_WAIT_MS})`),
    limit,
  }),
  requires: ['inbox'],
  hints: { readOnly: false, idempotent: false },
  async run(input, ctx) {
    const got = await serviceOf(ctx, 'inbox').wait(input.timeoutMs ?? DEFAULT_WAIT_MS, input.limit ?? DEFAULT_LIMIT, ctx.signal);
    return { ...got, timedOut: got.messages.length === 0 };
  },
});
