/**
 * The team policy as a catalogue rule (`policy`): every runtime and MCP tool call that messages,
 * creates, assigns or deletes tasks is checked against the team's policy (core/teams/policy.ts, the same
 * check the CLI verbs run) before its handler runs; a refusal is NOT_PERMITTED naming the rule.
 */
import { broadcastActions, requirePermitted } from '../core/teams/policy.js';
import type { PolicyAction } from '../domain/policy.js';
import type { ToolCall, ToolRule } from './rules.js';

async function actionsOf(call: ToolCall): Promise<PolicyAction[]> {
  const input = call.input;
  const me = call.ctx.member;
  switch (call.tool) {
    case 'send_message':
      // "*" runs broadcast and a shutdown_response object runs shutdown_response, each checked on its own.
      return typeof input.message === 'string' && input.to !== '*' ? [{ rule: 'message', to: String(input.to) }] : [];
    case 'broadcast':
      return broadcastActions(call.ctx.target, me);
    case 'task_create': {
      const out: PolicyAction[] = [{ rule: 'createTasks' }];
      if (typeof input.owner === 'string' && input.owner !== '' && input.owner !== me) out.push({ rule: 'assignTasks', owner: input.owner });
      return out;
    }
    case 'task_update': {
      if (input.status === 'deleted') return [{ rule: 'deleteTasks', id: String(input.taskId) }];
      return typeof input.owner === 'string' && input.owner !== '' && input.owner !== me ? [{ rule: 'assignTasks', owner: input.owner }] : [];
    }
    default:
      return [];
  }
}

/** The catalogue-wide policy rule. */
export const policyRule: ToolRule = {
  name: 'policy',
  async check(call) {
    await requirePermitted(call.ctx.target, call.ctx.member, await actionsOf(call), call.tool);
  },
};
