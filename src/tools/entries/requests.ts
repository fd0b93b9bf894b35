/**
 * The lead's approval tools (MCP): list_requests, approve_request, deny_request — the same use
 * cases as `mailroom requests`/`approve`/`deny` (core/messages/approvals.ts), answering in Claude Code's
 * response shapes. Only the lead may call them (rule `lead-only`): an answer from anyone else would
 * not be honoured by a Claude Code teammate anyway.
 */
import { z } from 'zod';
import { answerRequest, listRequests, type Answered, type ListedRequest } from '../../core/messages/approvals.js';
import { defineTool } from '../entry.js';
import { journalled } from '../../core/live/journal-refusals.js';
import { notPermitted, type ToolRule } from '../rules.js';

/** Refuses a caller that is not the team's lead. */
export const leadOnlyRule: ToolRule = {
  name: 'lead-only',
  async check(call) {
    if (call.ctx.member === call.ctx.lead) return;
    throw await journalled(call.ctx.target, call.ctx.member, call.tool, notPermitted('lead-only', call, `Only the lead (${call.ctx.lead}) answers requests; you are ${call.ctx.member}.`), { surface: call.surface });
  },
};

const requestView = (r: ListedRequest) => ({ id: r.id, kind: r.kind, from: r.from, timestamp: r.timestamp, summary: r.summary, ...(r.answered ? { answered: true } : {}), message: r.message });
const answeredView = (a: Answered) => ({ id: a.request.id, kind: a.request.kind, to: a.request.from, approved: a.approved, timestamp: a.sent.entry.timestamp });
const id = z.string().min(1).describe('The request id, as list_requests shows it (perm-…, plan_approval-…, sandbox-…)');

/** list_requests. */
export const listRequestsTool = defineTool({
  id: 'list_requests',
  names: { mcp: 'list_requests' },
  description: 'List the permission, plan-approval and sandbox requests teammates sent you that wait for an answer (all: answered ones too).',
  input: z.object({ all: z.boolean().optional().describe('Also list answered requests') }),
  rules: [leadOnlyRule],
  hints: { readOnly: true },
  run: (input, ctx) => listRequests({ ...ctx.target, all: input.all === true }),
  views: { mcp: (r) => ({ requests: r.map(requestView) }) },
});

/** approve_request. */
export const approveRequestTool = defineTool({
  id: 'approve_request',
  names: { mcp: 'approve_request' },
  description: 'Approve a teammate\'s request: it goes ahead (a permission: the tool runs; a plan: it starts working; sandbox: the host is allowed).',
  input: z.object({ requestId: id, feedback: z.string().optional().describe('A note for the teammate') }),
  rules: [leadOnlyRule],
  hints: { destructive: false, idempotent: false },
  run: (input, ctx) => answerRequest({ ...ctx.target, from: ctx.member, requestId: input.requestId, approve: true, feedback: input.feedback }),
  views: { mcp: answeredView },
});

/** deny_request. */
export const denyRequestTool = defineTool({
  id: 'deny_request',
  names: { mcp: 'deny_request' },
  description: 'Deny a teammate\'s request, with the reason it gets (it does not go ahead).',
  input: z.object({ requestId: id, reason: z.string().min(1).describe('Why: the teammate reads it') }),
  rules: [leadOnlyRule],
  hints: { destructive: false, idempotent: false },
  run: (input, ctx) => answerRequest({ ...ctx.target, from: ctx.member, requestId: input.requestId, approve: false, reason: input.reason }),
  views: { mcp: answeredView },
});
