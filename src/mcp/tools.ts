/**
 * The MCP surface of the tool catalogue (src/tools): every entry the catalogue exposes on MCP,
 * registered with McpServer.registerTool under its snake_case name and argument names, acting as
 * this server's member. The SDK validates arguments with the entry's schema (renamed for MCP);
 * each call then goes through the catalogue's gate, as runtime calls do, and its result or error
 * comes back in the envelope of ./result.ts. An entry not enabled for this member is registered
 * disabled: not listed, and refused by the SDK if called anyway.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { leadName } from '../domain/roster.js';
import { CATALOGUE } from '../tools/all.js';
import type { Catalogue } from '../tools/catalogue.js';
import type { ToolEntry, ToolHints } from '../tools/entry.js';
import { surfaceSchema, toCanonical } from '../tools/naming.js';
import type { ToolContext } from '../tools/types.js';
import { consumeUnread, waitForUnread } from './inbox.js';
import { handler } from './result.js';
import type { McpSession } from './session.js';

const SURFACE = 'mcp';

/**
 * Registers the catalogue's MCP tools on `server` for `session`'s member. `knownLead`: the team's
 * lead when the caller has read it (a team's lead does not change); else it is read from the team
 * config, starting now.
 */
export function registerCatalogueTools(server: McpServer, session: McpSession, catalogue: Catalogue = CATALOGUE, knownLead?: string): void {
  const lead = knownLead === undefined ? leadOf(session) : () => Promise.resolve(knownLead);
  for (const entry of catalogue.exposedOn(SURFACE)) {
    const name = entry.names.mcp ?? entry.id;
    const registered = server.registerTool(
      name,
      { description: catalogue.describe(entry, SURFACE, session.me), inputSchema: surfaceSchema(entry, SURFACE), annotations: annotationsOf(entry.hints) },
      handler(session.log, name, async (args: Record<string, unknown>, extra: { signal: AbortSignal; requestId?: string | number }) => {
        const input = toCanonical(entry, SURFACE, args);
        const ctx = callContext(session, await lead(), extra.signal, extra.requestId);
        await session.noteCall(entry.id);
        const result = await catalogue.call(entry.id, input, ctx, SURFACE);
        if (entry.id === 'wait_for_message') await session.noteWaitEnded((result as { timedOut?: boolean }).timedOut === true, ctx.lead);
        return present(entry, result, input, ctx);
      }),
    );
    if (catalogue.disabledBy(entry, SURFACE, { team: session.team, member: session.me })) registered.disable();
  }
}

function present(entry: ToolEntry, result: unknown, input: Record<string, unknown>, ctx: ToolContext): Record<string, unknown> {
  if (entry.views.mcp) return entry.views.mcp(result, input, ctx);
  if (typeof result === 'object' && result !== null && !Array.isArray(result)) return result as Record<string, unknown>;
  throw new Error(`Tool ${entry.id} returned no object and has no MCP view.`);
}

/** The catalogue's context for one call (JSON-RPC id `requestId`) of this server's member. */
function callContext(session: McpSession, lead: string, signal: AbortSignal, requestId?: string | number): ToolContext {
  return {
    target: session.target,
    member: session.me,
    lead,
    cwd: process.cwd(),
    signal,
    record: {},
    log: session.log,
    claims: session.claims,
    services: {
      inbox: {
        // A cancelled request's hand-out is given back (docs/mcp.md "Delivery guarantee").
        take: (limit) => consumeUnread(session, limit, undefined, { id: requestId, signal }),
        wait: (timeoutMs, limit, waitSignal) => waitForUnread(session, timeoutMs, limit, waitSignal, requestId),
        ack: (msgIds) => session.consume(() => session.handOut.ack(msgIds)),
      },
    },
  };
}

/**
 * The lead's name, read from the team config once (a team's lead does not change): the read starts
 * now, so calls do not wait for it; a failed read is retried by the next call.
 */
function leadOf(session: McpSession): () => Promise<string> {
  const read = () => session.store.team.readConfig(session.team).then(leadName);
  let known = read();
  known.catch(() => undefined);
  return () => known.catch(() => (known = read()));
}

function annotationsOf(h: ToolHints): { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean } | undefined {
  const a: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean } = {};
  if (h.readOnly !== undefined) a.readOnlyHint = h.readOnly;
  if (h.destructive !== undefined) a.destructiveHint = h.destructive;
  if (h.idempotent !== undefined) a.idempotentHint = h.idempotent;
  return Object.keys(a).length > 0 ? a : undefined;
}
