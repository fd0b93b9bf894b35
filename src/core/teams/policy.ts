/**
 * Enforcing the team policy (src/domain/policy.ts) for a use case: reads the team's settings and
 * roster and refuses the first action the policy does not allow. The CLI verbs call it; the
 * catalogue's policy rule (src/tools/policy-rule.ts) calls it for runtime and MCP tools.
 */
import { leadName } from '../../domain/roster.js';
import { policyError, policyRefusal, type PolicyAction } from '../../domain/policy.js';
import { MailroomError } from '../../errors.js';
import type { SettingsPatch, TeamPolicy } from '../../protocol/settings.js';
import { opOf, teamOf, type TeamOptions } from '../context.js';
import { journalled } from '../live/journal-refusals.js';

const ACTION_NAMES = { message: 'message', createTasks: 'task.create', assignTasks: 'task.assign', deleteTasks: 'task.delete', stopMembers: 'member.stop' } as const;
const actionName = (a: PolicyAction): string => ACTION_NAMES[a.rule];
const targetOf = (a: PolicyAction): string | undefined => ('to' in a ? a.to : 'owner' in a ? a.owner : 'id' in a ? `#${a.id}` : 'target' in a ? a.target : undefined);

/**
 * @param actor who attempts it (default: the lead, never refused)
 * @throws NOT_PERMITTED naming the rule (`details.rule`), TEAM_NOT_FOUND
 */
export async function requirePermitted(options: TeamOptions, actor: string | undefined, actions: readonly PolicyAction[], tool?: string): Promise<void> {
  if (actions.length === 0) return;
  const store = teamOf(options);
  const [config, settings] = await Promise.all([store.readConfig(options.team), store.readSettings(options.team)]);
  if (!settings.policy) return;
  const lead = leadName(config);
  for (const action of actions) {
    const refusal = policyRefusal(settings.policy, actor ?? lead, lead, action);
    if (refusal) throw await journalled(options, actor ?? lead, actionName(action), policyError(refusal, tool), { target: targetOf(action), surface: tool ? 'tool' : 'cli' });
  }
}

/** The recipients of a broadcast from `from` (every other member), as message actions. */
export async function broadcastActions(options: TeamOptions, from: string | undefined): Promise<PolicyAction[]> {
  const config = await teamOf(options).readConfig(options.team);
  const sender = (from ?? leadName(config)).toLowerCase();
  return config.members.filter((m) => m.name.toLowerCase() !== sender).map((m) => ({ rule: 'message' as const, to: m.name }));
}

/** One change of {@link changePolicy}: `rule` is `createTasks`, `assignTasks`, `deleteTasks`, `stopMembers` or `message.<sender>` (`message.*`: every sender without its own). */
export interface PolicyChange {
  rule: string;
  /** Who may (`*`, names, `@lead`); `undefined`: the rule is removed (open). */
  who?: readonly string[] | undefined;
}

const TOP_RULES = ['createTasks', 'assignTasks', 'deleteTasks', 'stopMembers'];

/**
 * Changes the team policy rule by rule and returns it. Only the lead may (`as`, default the lead).
 * @throws INVALID_ARGUMENT (unknown rule), NOT_PERMITTED (not the lead), TEAM_NOT_FOUND
 */
export async function changePolicy(options: TeamOptions & { as?: string | undefined }, changes: readonly PolicyChange[]): Promise<TeamPolicy> {
  const store = teamOf(options);
  const config = await store.readConfig(options.team);
  const lead = leadName(config);
  if (options.as !== undefined && options.as !== lead) throw policyError({ rule: 'lead-only', message: `Only the lead (${lead}) changes the team policy` });
  // Each change patches its one rule inside the store's transition (never the whole policy as
  // read here), so two edits of different rules made at the same time both survive.
  const patch: SettingsPatch = {};
  for (const c of changes) {
    if (!(c.rule.startsWith('message.') && c.rule.length > 'message.'.length) && !TOP_RULES.includes(c.rule)) {
      throw new MailroomError('INVALID_ARGUMENT', `Unknown policy rule "${c.rule}": use one of ${[...TOP_RULES, 'message.<sender>', 'message.*'].join(', ')}.`);
    }
    patch[`policy.${c.rule}`] = c.who === undefined ? null : [...c.who];
  }
  const done = await store.updateSettings(options.team, patch, opOf(options, options.as ?? lead));
  return done.value.settings.policy ?? {};
}
