/**
 * list_members: the roster with each member's unread count, and which member this server is.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { showTeam } from '../../core/teams.js';
import { handler } from '../result.js';
import type { McpSession } from '../session.js';

/** Registers list_members. */
export function registerTeamTools(server: McpServer, session: McpSession): void {
  server.registerTool(
    'list_members',
    {
      description: 'List the team: each member\'s name (use it as "to" and as task owner), lead flag, type, model, color, active flag and unread count.',
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    handler(session.log, 'list_members', async () => {
      const summary = await showTeam(session.target);
      return { team: summary.config.name, you: session.me, members: summary.members, tasks: summary.tasks };
    }),
  );
}
