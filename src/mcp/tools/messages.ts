/**
 * Tools that write to other members' inboxes: send_message, broadcast, shutdown_response.
 * Every message is sent as this server's member (`--as`), never as the lead.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { broadcast, sendMessage, type SentMessage } from '../../core/messages.js';
import { respondToShutdown } from '../../core/shutdown.js';
import { leadHearingWarning } from '../../core/lead-hearing.js';
import { handler } from '../result.js';
import type { McpSession } from '../session.js';

const sentView = (s: SentMessage) => ({ to: s.to, timestamp: s.entry.timestamp, msg_id: s.entry.msg_id });

const summary = z.string().optional().describe('5–10 word preview shown to the recipient');

/** Registers send_message, broadcast and shutdown_response. */
export function registerMessageTools(server: McpServer, session: McpSession): void {
  const { log } = session;
  server.registerTool(
    'send_message',
    {
      description: `Send a message to one team member's inbox, as "${session.me}". Use list_members for names; the lead is usually "team-lead".`,
      inputSchema: { to: z.string().describe('Recipient member name'), text: z.string().describe('Message text'), summary },
      annotations: { destructiveHint: false, idempotentHint: false },
    },
    handler(log, 'send_message', async (a: { to: string; text: string; summary?: string | undefined }) => {
      const sent = await sendMessage({ ...session.target, from: session.me, to: a.to, text: a.text, summary: a.summary });
      const warning = await leadHearingWarning({ ...session.target, to: [sent.to] });
      return { sent: sentView(sent), ...(warning !== undefined ? { warning } : {}) };
    }),
  );
  server.registerTool(
    'broadcast',
    {
      description: 'Send one copy of a message to every other team member. Costs every recipient a turn: prefer send_message.',
      inputSchema: { text: z.string().describe('Message text'), summary },
      annotations: { destructiveHint: false, idempotentHint: false },
    },
    handler(log, 'broadcast', async (a: { text: string; summary?: string | undefined }) => {
      const sent = await broadcast({ ...session.target, from: session.me, text: a.text, summary: a.summary });
      const warning = await leadHearingWarning({ ...session.target, to: sent.map((s) => s.to) });
      return { sent: sent.map(sentView), ...(warning !== undefined ? { warning } : {}) };
    }),
  );
  server.registerTool(
    'shutdown_response',
    {
      description:
        'Answer a shutdown_request from the lead. Echo its requestId exactly. approve=true: the lead removes you from the team and ' +
        'returns your open tasks to pending; stop working afterwards. approve=false needs a reason; you keep working.',
      inputSchema: {
        request_id: z.string().min(1).describe('The requestId of the shutdown_request, unchanged'),
        approve: z.boolean(),
        reason: z.string().optional().describe('Why (required when rejecting)'),
      },
      annotations: { destructiveHint: true, idempotentHint: false },
    },
    handler(log, 'shutdown_response', async (a: { request_id: string; approve: boolean; reason?: string | undefined }) => {
      const sent = await respondToShutdown({ ...session.target, from: session.me, requestId: a.request_id, approve: a.approve, reason: a.reason, requireRequest: true });
      return { sent: sentView(sent), approved: a.approve, request_id: a.request_id };
    }),
  );
}
