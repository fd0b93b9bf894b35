/**
 * list_members: the roster with each member's unread count, and which member the caller is. MCP
 * only: the runtime puts the roster in every system prompt.
 */
import { z } from 'zod';
import { showTeam } from '../../core/teams/team-lifecycle.js';
import { defineTool } from '../entry.js';

/** list_members. */
export const listMembersTool = defineTool({
  id: 'list_members',
  names: { mcp: 'list_members' },
  description: 'List the team: each member\'s name (use it as "to" and as task owner), lead flag, type, model, color, active flag, presence (working, idle, stopped or dead, with its last heartbeat; unknown when no mailroom runtime beats for it, e.g. the lead) and unread count.',
  input: z.object({}),
  hints: { readOnly: true },
  async run(_input, ctx) {
    const summary = await showTeam(ctx.target);
    return { team: summary.config.name, you: ctx.member, members: summary.members, tasks: summary.tasks };
  },
});
