/**
 * Builds the MCP server of one member: the tool catalogue's MCP tools and the resources, over an {@link McpSession}.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerResources } from './resources.js';
import type { McpSession } from './session.js';
import { registerCatalogueTools } from './tools.js';
import type { Catalogue } from '../tools/catalogue.js';
import { VERSION } from '../version.js';

/** Name and version the server reports to clients. */
export const SERVER_INFO = { name: 'mailroom', version: VERSION } as const;

/** Options of {@link createMcpServer}. */
export interface McpServerOptions {
  /** The catalogue to serve (default: the tool catalogue, `CATALOGUE`). */
  catalogue?: Catalogue | undefined;
  /** The team's lead, when the caller has read it (else the tools read it from the team config once, at creation). */
  lead?: string | undefined;
}

/** A not yet connected MCP server acting as `session.me` in `session.team`: the catalogue's MCP tools and the resources. */
export function createMcpServer(session: McpSession, options: McpServerOptions = {}): McpServer {
  const server = new McpServer(SERVER_INFO, {
    instructions:
      `You are "${session.me}", a member of team "${session.team}" (mailroom / Claude Code Agent Teams). ` +
      'Messages from teammates arrive in your inbox: call read_inbox, or wait_for_message when you have nothing else to do. ' +
      'Reply with send_message; coordinate work on the task board (task_list, task_claim, task_update). ' +
      'When the lead sends a shutdown_request, answer with shutdown_response echoing its requestId.',
  });
  registerCatalogueTools(server, session, options.catalogue, options.lead);
  registerResources(server, session);
  return server;
}
