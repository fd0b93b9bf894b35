/**
 * SendMessage, shaped as Claude Code's from 2.1.109 (reference §8): `{to, summary?, message}` where
 * `message` is text, or a structured `shutdown_response` `{type, request_id, approve, reason?}`.
 * `to: "*"` broadcasts to every member but the sender.
 */
import { z } from 'zod';
import { broadcast, sendMessage } from '../../core/messages.js';
import { respondToShutdown } from '../../core/shutdown.js';
import { defineTool, type ToolContext } from './types.js';

const ShutdownResponse = z.object({
  type: z.literal('shutdown_response'),
  request_id: z.string().describe('The requestId of the shutdown_request, copied exactly'),
  approve: z.boolean(),
  reason: z.string().optional().describe('Required when approve is false'),
});

const Input = z.object({
  to: z.string().describe('Member name, or "*" to broadcast to every other member'),
  summary: z.string().optional().describe('5-10 word preview'),
  message: z.union([z.string(), ShutdownResponse]).describe('Message text, or a shutdown_response object'),
});

/** The SendMessage tool. */
export const sendMessageTool = defineTool(
  'SendMessage',
  'Send a message to a teammate or the lead ("*" for everyone), or answer a shutdown_request with a shutdown_response.',
  Input,
  async (input, ctx) => (typeof input.message === 'string' ? sendText(input.to, input.message, input.summary, ctx) : answerShutdown(input.message, ctx)),
);

async function sendText(to: string, text: string, summary: string | undefined, ctx: ToolContext): Promise<unknown> {
  const base = { root: ctx.store, team: ctx.team, from: ctx.name, text, summary };
  if (to === '*') {
    const sent = await broadcast(base);
    return { sent: sent.map((s) => s.to) };
  }
  const sent = await sendMessage({ ...base, to });
  ctx.record.lastDirect = { to, text, summary };
  return { sent: [sent.to] };
}

async function answerShutdown(message: z.infer<typeof ShutdownResponse>, ctx: ToolContext): Promise<unknown> {
  await respondToShutdown({ root: ctx.store, team: ctx.team, from: ctx.name, requestId: message.request_id, approve: message.approve, reason: message.reason, requireRequest: true });
  if (message.approve) ctx.record.shutdownApproved = { requestId: message.request_id };
  return message.approve ? 'Shutdown approved: you will stop now.' : 'Shutdown rejected; keep working.';
}
