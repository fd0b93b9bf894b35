/**
 * Team policy (src/protocol/settings.ts `policy`): who may message whom, create, assign or delete
 * tasks, and stop members; and the lead-only answers. The one pure check, run by the use cases
 * that send, assign, create, delete, answer or stop (through core/teams/policy.ts), so every surface —
 * CLI, runtime tools, MCP, library, bridge — is bound by construction. Default open: a rule that
 * is absent permits everyone. The lead is never refused, and anyone may message the lead (idle
 * notifications, answers and reports must always get through). Lead-only messages
 * ({@link LEAD_ONLY_TYPES}) come from the lead alone in every team, with or without a policy.
 */
import { MailroomError } from '../errors.js';
import type { PolicyRule, TeamPolicy } from '../protocol/settings.js';

/**
 * The protocol messages only the lead sends (reference §4, lead → teammate; Claude Code's pollers
 * act on each): the answers to permission, plan and sandbox requests, shutdown requests, and the
 * two that change a teammate's permissions — `team_permission_update` (adds allow rules) and
 * `mode_set_request` (switches its permission mode). From a teammate they would hand out what only
 * the lead gives.
 */
export const LEAD_ONLY_TYPES: readonly string[] = ['shutdown_request', 'permission_response', 'plan_approval_response', 'sandbox_permission_response', 'team_permission_update', 'mode_set_request'];

/** An attempt the policy decides on. `leadOnly`: sending a {@link LEAD_ONLY_TYPES} message. */
export type PolicyAction =
  | { rule: 'message'; to: string }
  | { rule: 'leadOnly'; type: string; to?: string | undefined }
  | { rule: 'createTasks' }
  /** `from`: the member that owns the task now, when the change takes it from them (to the actor, or to nobody). */
  | { rule: 'assignTasks'; owner: string; from?: string | undefined }
  | { rule: 'deleteTasks'; id: string }
  | { rule: 'stopMembers'; target: string };

/** A refusal: the rule (`policy.<rule>`, `policy.message.<sender>`) and why. */
export interface PolicyRefusal {
  rule: string;
  message: string;
}

function allows(who: readonly string[], name: string, lead: string): boolean {
  return who.includes('*') || who.includes(name) || (name === lead && who.includes('@lead'));
}

/** Why `actor` may not do `action` under `policy`, or undefined when it may. */
export function policyRefusal(policy: TeamPolicy | undefined, actor: string, lead: string, action: PolicyAction): PolicyRefusal | undefined {
  if (actor === lead) return undefined;
  if (action.rule === 'leadOnly') {
    return { rule: 'lead-only', message: `${actor} may not send ${/^[aeiou]/.test(action.type) ? 'an' : 'a'} ${action.type}${action.to !== undefined ? ` (to ${action.to})` : ''}: only the lead (${lead}) answers requests, changes a member's permissions and asks members to shut down` };
  }
  if (!policy) return undefined;
  if (action.rule === 'message') {
    if (action.to === lead) return undefined;
    const own = policy.message?.[actor];
    const who = own ?? policy.message?.['*'];
    if (who === undefined || allows(who, action.to, lead)) return undefined;
    const rule = own ? `policy.message.${actor}` : 'policy.message.*';
    return { rule, message: `${actor} may not message ${action.to}: the team policy lets it message ${who.length ? who.join(', ') : 'only the lead'}` };
  }
  const who = policy[action.rule as PolicyRule] as readonly string[] | undefined;
  if (who === undefined || allows(who, actor, lead)) return undefined;
  const what = { createTasks: 'create tasks', assignTasks: assignWhat(action), deleteTasks: `delete tasks (#${'id' in action ? action.id : ''})`, stopMembers: `stop members (${'target' in action ? action.target : ''})` }[action.rule];
  return { rule: `policy.${action.rule}`, message: `${actor} may not ${what}: the team policy allows ${who.length ? who.join(', ') : 'only the lead'}` };
}

function assignWhat(action: PolicyAction): string {
  if (action.rule !== 'assignTasks') return '';
  return action.from !== undefined ? `take a task from ${action.from}${action.owner ? ` (for ${action.owner})` : ' (leaving it unowned)'}` : `assign tasks (to ${action.owner})`;
}

/** The NOT_PERMITTED error of a refusal (`details.rule` set, and `details.tool` when a tool was called). */
export function policyError(r: PolicyRefusal, tool?: string): MailroomError {
  return new MailroomError('NOT_PERMITTED', `${r.message} (rule: ${r.rule})`, { details: { rule: r.rule, ...(tool ? { tool } : {}) } });
}
