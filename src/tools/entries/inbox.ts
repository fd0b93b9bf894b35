/**
 * read_inbox, wait_for_message and ack: consuming the caller's inbox over MCP. The reads return
 * the oldest unread messages; they turn read once acknowledged — by the caller's next read or by
 * `ack` — so a reply lost with a dying server is delivered again, same msg_id, marked
 * `redelivered` (docs/mcp.md "Delivery guarantee"). The runtime has no such tools: it delivers
 * unread messages before every model call and marks them read after it.
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
    'Return your unread messages (oldest first). Calling it (or wait_for_message) again marks the messages it returned before as read; ' +
    `${d.tool('ack') ?? 'ack'} does so at once. A message marked "redelivered" was handed out before and not acknowledged: same msg_id, handle it once. ` +
    'Protocol messages come with "type" and the parsed "message"; ' +
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
    `Block until a message reaches your inbox, then return the unread messages (like ${d.tool('read_inbox') ?? 'reading the inbox'}; this call marks the ones returned before as read). ` +
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

/** ack: marks messages handed out by read_inbox / wait_for_message read now (else the next read does). */
export const ackTool = defineTool({
  id: 'ack',
  names: { mcp: 'ack' },
  description: (d) =>
    `Mark messages returned by ${d.tool('read_inbox') ?? 'read_inbox'} or ${d.tool('wait_for_message') ?? 'wait_for_message'} as read now (by msg_id; default: all of them). ` +
    'Your next read does this by itself; ack when you will not read again soon. Unacknowledged messages are delivered again if this server stops.',
  input: z.object({
    msgIds: z.array(z.string().min(1)).min(1).max(MAX_LIMIT).optional().describe('msg_ids to acknowledge (default: every message handed out and not acknowledged)'),
  }),
  requires: ['inbox'],
  hints: { readOnly: false, idempotent: true },
  run: async (input, ctx) => ({ ...(await serviceOf(ctx, 'inbox').ack(input.msgIds)) }),
});
