/**
 * ask and reply (MCP; issue 11 item 1): ask a member and wait for its reply, and answer an ask by
 * its msg_id (core/messages/ask.ts). The runtime's SendMessage answers asks by itself (messages.ts).
 */
import { z } from 'zod';
import { ask, reply } from '../../core/messages/ask.js';
import { idempotencyKey, summary } from '../args.js';
import { defineTool } from '../entry.js';
import { sentView } from './messages.js';

/** Default wait of ask, ms: below the 60 s request timeout of common MCP clients. */
export const DEFAULT_ASK_WAIT_MS = 30_000;
/** Longest wait ask accepts, ms. */
export const MAX_ASK_WAIT_MS = 600_000;

/** ask: send a question and wait for its reply. */
export const askTool = defineTool({
  id: 'ask',
  names: { mcp: 'ask' },
  description: (d) =>
    `Ask a member a question and wait for its reply (returned as "reply"). Fails at once if the member cannot answer (its runtime is dead or stopped); ` +
    `after ${d.arg('timeoutMs')} (default ${DEFAULT_ASK_WAIT_MS}) it fails with WAIT_TIMEOUT and the question is cancelled — a late reply still reaches your inbox, marked late. ` +
    `${d.arg('idempotencyKey')} makes a retry send nothing new and wait for the first question's reply.`,
  input: z.object({
    to: z.string().min(1).describe('Member to ask'),
    message: z.string().min(1).describe('The question'),
    summary,
    timeoutMs: z.number().int().min(0).max(MAX_ASK_WAIT_MS).optional().describe(`How long to wait for the reply, ms (default ${DEFAULT_ASK_WAIT_MS}, max ${MAX_ASK_WAIT_MS})`),
    idempotencyKey,
  }),
  args: { mcp: { message: 'text' } },
  hints: { destructive: false, idempotent: false },
  run: (input, ctx) =>
    ask({ ...ctx.target, from: ctx.member, to: input.to, text: input.message, summary: input.summary, timeoutMs: input.timeoutMs ?? DEFAULT_ASK_WAIT_MS, idempotencyKey: input.idempotencyKey, signal: ctx.signal }),
  views: {
    mcp: (r) => ({
      asked: sentView(r.ask),
      reply: { from: r.reply.from, text: r.reply.text, timestamp: r.reply.timestamp, msg_id: r.reply.msg_id },
      waited_ms: r.waitedMs,
      ...(r.replayed ? { replayed: true } : {}),
    }),
  },
});

/** reply: answer a question (an ask) by its msg_id; the reply goes to whoever asked. */
export const replyTool = defineTool({
  id: 'reply',
  names: { mcp: 'reply' },
  description: (d) =>
    `Answer a message that expects a reply (it has "reply_expected": true): give its msg_id as ${d.arg('inReplyTo')}; the reply goes to its sender, who may be waiting for it. ` +
    'A reply after the asker stopped waiting is still delivered, marked late.',
  input: z.object({
    inReplyTo: z.string().min(1).describe('msg_id of the message you answer'),
    message: z.string().min(1).describe('Reply text'),
    summary,
  }),
  args: { mcp: { message: 'text' } },
  hints: { destructive: false, idempotent: false },
  run: (input, ctx) => reply({ ...ctx.target, from: ctx.member, inReplyTo: input.inReplyTo, text: input.message, summary: input.summary }),
  views: {
    runtime: (r) => ({ sent: [r.to], late: r.late }),
    mcp: (r) => ({ sent: sentView(r), late: r.late }),
  },
});
