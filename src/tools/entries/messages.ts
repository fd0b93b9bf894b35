/**
 * Messages: send_message (the runtime's SendMessage, shaped as Claude Code's from 2.1.109,
 * reference §8), broadcast and shutdown_response. Every message is sent as the calling member.
 * send_message to "*" runs broadcast, and with a shutdown_response object runs shutdown_response,
 * through the gate, so the rules of those entries apply however they are reached.
 */
import { z } from 'zod';
import { openAskFrom, reply } from '../../core/messages/ask.js';
import { broadcast, sendMessage, type SentMessage } from '../../core/messages/send.js';
import { MailroomError } from '../../errors.js';
import { respondToShutdown } from '../../core/members/shutdown.js';
import { leadHearingWarning } from '../../core/messages/lead-hearing.js';
import { idempotencyKey, requestId, summary } from '../args.js';
import { defineTool } from '../entry.js';

/** How MCP results show a sent message. */
export const sentView = (s: SentMessage) => ({
  to: s.to,
  timestamp: s.entry.timestamp,
  msg_id: s.entry.msg_id,
  ...(typeof s.entry.in_reply_to === 'string' ? { in_reply_to: s.entry.in_reply_to } : {}),
  ...(s.replayed ? { replayed: true } : {}),
});

/** Adds the once-per-lead-session warning of a lead that cannot hear (core/messages/lead-hearing.ts), when there is one. */
const withWarning = <T extends object>(view: T, warning: string | undefined): T | (T & { warning: string }) => (warning === undefined ? view : { ...view, warning });

const shutdownText = (approve: boolean) => (approve ? 'Shutdown approved: you will stop now.' : 'Shutdown rejected; keep working.');

/** shutdown_response: answer the lead's shutdown_request. */
export const shutdownResponseTool = defineTool({
  id: 'shutdown_response',
  names: { mcp: 'shutdown_response' },
  description:
    'Answer a shutdown_request from the lead. Echo its requestId exactly. approve=true: the lead removes you from the team and ' +
    'returns your open tasks to pending; stop working afterwards. approve=false needs a reason; you keep working.',
  input: z.object({
    requestId,
    approve: z.boolean(),
    reason: z.string().optional().describe('Why (required when rejecting)'),
  }),
  hints: { destructive: true, idempotent: false },
  async run(input, ctx) {
    const sent = await respondToShutdown({ ...ctx.target, from: ctx.member, requestId: input.requestId, approve: input.approve, reason: input.reason, requireRequest: true, leave: true });
    if (input.approve) ctx.record.shutdownApproved = { requestId: input.requestId };
    return sent;
  },
  views: {
    runtime: (_sent, input) => shutdownText(input.approve),
    mcp: (sent, input) => ({ sent: sentView(sent), approved: input.approve, request_id: input.requestId }),
  },
});

/** broadcast: one copy to every other member. */
export const broadcastTool = defineTool({
  id: 'broadcast',
  names: { mcp: 'broadcast' },
  description: (d) => `Send one copy of a message to every other team member. Costs every recipient a turn: prefer ${d.tool('send_message') ?? 'a direct message'}.`,
  input: z.object({ message: z.string().describe('Message text'), summary }),
  args: { mcp: { message: 'text' } },
  hints: { destructive: false, idempotent: false },
  async run(input, ctx) {
    const sent = await broadcast({ ...ctx.target, from: ctx.member, text: input.message, summary: input.summary });
    return { sent, warning: await leadHearingWarning({ ...ctx.target, to: sent.map((s) => s.to) }) };
  },
  views: {
    runtime: (r) => withWarning({ sent: r.sent.map((s) => s.to) }, r.warning),
    mcp: (r) => withWarning({ sent: r.sent.map(sentView) }, r.warning),
  },
});

const ShutdownResponse = z.object({
  type: z.literal('shutdown_response'),
  request_id: requestId,
  approve: z.boolean(),
  reason: z.string().optional().describe('Required when approve is false'),
});

/** What send_message did. */
type Sent =
  | { kind: 'direct'; sent: SentMessage; warning?: string | undefined }
  | { kind: 'broadcast'; sent: SentMessage[]; warning?: string | undefined }
  | { kind: 'shutdown'; sent: SentMessage; approve: boolean; requestId: string };

/** send_message / SendMessage. */
export const sendMessageTool = defineTool({
  id: 'send_message',
  names: { runtime: 'SendMessage', mcp: 'send_message' },
  description: (d) =>
    `Send a message to a member's inbox${d.member ? `, as "${d.member}"` : ''}: to one member by name (the lead is usually "team-lead"` +
    `${d.tool('list_members') ? `; ${d.tool('list_members')} lists them` : ''}), or to "*" for every other member. ` +
    `${d.arg('message')} is the text, or a shutdown_response object answering a shutdown_request. ` +
    `A message to the member who asked you something is your reply to its oldest open question; ${d.arg('inReplyTo')} names the question (its msg_id) explicitly.`,
  input: z.object({
    to: z.string().min(1).describe('Member name, or "*" to broadcast to every other member'),
    summary,
    message: z.union([z.string(), ShutdownResponse]).describe('Message text, or a shutdown_response object {type, request_id, approve, reason?}'),
    inReplyTo: z.string().min(1).optional().describe('msg_id of the question this answers; the reply goes to its sender'),
    idempotencyKey: idempotencyKey,
  }),
  args: { mcp: { message: 'text' }, runtime: { inReplyTo: 'in_reply_to' } },
  invokes: ['broadcast', 'shutdown_response'],
  hints: { destructive: false, idempotent: false },
  async run(input, ctx): Promise<Sent> {
    const m = input.message;
    if (typeof m !== 'string') {
      const sent = await ctx.invoke(shutdownResponseTool, { requestId: m.request_id, approve: m.approve, reason: m.reason });
      return { kind: 'shutdown', sent, approve: m.approve, requestId: m.request_id };
    }
    if (input.to === '*') {
      if (input.inReplyTo !== undefined) throw new MailroomError('INVALID_ARGUMENT', 'A reply goes to the member who asked, not to "*": give its name as "to".');
      const sent = await ctx.invoke(broadcastTool, { message: m, summary: input.summary });
      ctx.record.messaged = [...(ctx.record.messaged ?? []), '*'];
      return { kind: 'broadcast', ...sent };
    }
    const answers = input.inReplyTo ?? (await openAskFrom({ ...ctx.target, member: ctx.member, asker: input.to }));
    const sent =
      answers !== undefined
        ? await reply({ ...ctx.target, from: ctx.member, to: input.to, inReplyTo: answers, text: m, summary: input.summary, idempotencyKey: input.idempotencyKey })
        : await sendMessage({ ...ctx.target, from: ctx.member, to: input.to, text: m, summary: input.summary, ...(input.idempotencyKey !== undefined ? { idempotencyKey: input.idempotencyKey } : {}) });
    ctx.record.lastDirect = { to: input.to, text: m, summary: input.summary };
    ctx.record.messaged = [...(ctx.record.messaged ?? []), sent.to];
    return { kind: 'direct', sent, warning: await leadHearingWarning({ ...ctx.target, to: [sent.to] }) };
  },
  views: {
    runtime: (r) => {
      if (r.kind === 'shutdown') return shutdownText(r.approve);
      return withWarning({ sent: r.kind === 'direct' ? [r.sent.to] : r.sent.map((s) => s.to) }, r.warning);
    },
    mcp: (r) => {
      if (r.kind === 'shutdown') return { sent: sentView(r.sent), approved: r.approve, request_id: r.requestId };
      return withWarning({ sent: r.kind === 'direct' ? sentView(r.sent) : r.sent.map(sentView) }, r.warning);
    },
  },
});
