/**
 * Builds the MCP server of one member: every tool group and the resources, over an {@link McpSession}.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerResources } from './resources.js';
import type { McpSession } from './session.js';
import { registerInboxTools } from './tools/inbox.js';
import { registerMessageTools } from './tools/messages.js';
import { registerTaskReadTools } from './tools/tasks-read.js';
import { registerTaskWriteTools } from './tools/tasks-write.js';
import { registerTeamTools } from './tools/team.js';
import { VERSION } from '../version.js';

/** Name and version the server reports to clients. */
export const SERVER_INFO = { name: 'mailroom', version: VERSION } as const;

/** A not yet connected MCP server acting as `session.me` in `session.team`. */
export function createMcpServer(session: McpSession): McpServer {
  const server = new McpServer(SERVER_INFO, {
    instructions:
      `You are "${session.me}", a member of team "${session.team}" (mailroom / Claude Code Agent Teams). ` +
      'Messages from teammates arrive in your inbox: call read_inbox, or wait_for_message when you have nothing else to do. ' +
      'Reply with send_message; coordinate work on the task board (task_list, task_claim, task_update). ' +
      'When the lead sends a shutdown_request, answer with shutdown_response echoing its requestId.',
  });
  registerMessageTools(server, session);
  registerInboxTools(server, session);
  registerTeamTools(server, session);
  registerTaskReadTools(server, session);
  registerTaskWriteTools(server, session);
  registerResources(server, session);
  return server;
}
