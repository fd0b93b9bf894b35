/**
 * Enforcing the team policy (src/domain/policy.ts) inside the use cases: each use case that sends
 * (core/messages/send.ts `deliver`, so also asks, replies, answers, assignment notices and shutdown
 * requests), creates, assigns or deletes tasks, or stops a member calls {@link requirePermitted}
 * with its actor before it changes anything. No surface checks on its own.
 */
import { leadName } from '../../domain/roster.js';
import { LEAD_ONLY_TYPES, policyError, policyRefusal, type PolicyAction } from '../../domain/policy.js';
import { MailroomError } from '../../errors.js';
import type { TeamConfig } from '../../protocol/config.js';
import type { SettingsPatch, TeamPolicy, TeamSettings } from '../../protocol/settings.js';
import { parseMessageText } from '../../protocol/structured.js';
import { opOf, teamOf, type TeamOptions } from '../context.js';
import { journalled } from '../live/journal-refusals.js';

const ACTION_NAMES = { message: 'message', leadOnly: 'control', createTasks: 'task.create', assignTasks: 'task.assign', deleteTasks: 'task.delete', stopMembers: 'member.stop' } as const;
const actionName = (a: PolicyAction): string => ACTION_NAMES[a.rule];
const targetOf = (a: PolicyAction): string | undefined => ('to' in a ? a.to : 'owner' in a ? a.owner : 'id' in a ? `#${a.id}` : 'target' in a ? a.target : undefined);

/**
 * Refuses the first of `actions` that `actor` may not do, journalling the refusal (`refused`
 * event with the rule, actor `actor`: `mailroom log --actor`).
 * @param actor who attempts it (default: the lead, never refused)
 * @param config the roster when the caller has read it already (else read here)
 * @param settings the team's settings when the caller has read them already (else read here, if a rule needs them)
 * @throws NOT_PERMITTED naming the rule (`details.rule`), TEAM_NOT_FOUND
 */
export async function requirePermitted(options: TeamOptions, actor: string | undefined, actions: readonly PolicyAction[], config?: TeamConfig, settings?: TeamSettings): Promise<void> {
  if (actions.length === 0) return;
  const store = teamOf(options);
  const roster = config ?? (await store.readConfig(options.team));
  const lead = leadName(roster);
  const who = actor ?? lead;
  if (who === lead) return;
  // Lead-only messages need no settings: refused in every team.
  const needsPolicy = actions.some((a) => a.rule !== 'leadOnly');
  const policy = needsPolicy ? (settings ?? (await store.readSettings(options.team))).policy : undefined;
  for (const action of actions) {
    const refusal = policyRefusal(policy, who, lead, action);
    if (refusal) throw await journalled(options, who, actionName(action), policyError(refusal), { target: targetOf(action), surface: options.surface });
  }
}

/**
 * The policy actions of sending `text` to `to`: the message rule, and `leadOnly` when the text is
 * a lead-only protocol message ({@link LEAD_ONLY_TYPES}).
 */
export function messageActions(text: string, to: string): PolicyAction[] {
  const actions: PolicyAction[] = [{ rule: 'message', to }];
  const type = leadOnlyType(text);
  if (type !== undefined) actions.unshift({ rule: 'leadOnly', type, to });
  return actions;
}

/** The type of a lead-only protocol message `text` carries, if it carries one. */
export function leadOnlyType(text: string): string | undefined {
  if (!text.trimStart().startsWith('{')) return undefined;
  const parsed = parseMessageText(text);
  // A malformed one counts too: no reader should take it for the lead's.
  const type = parsed.kind === 'structured' ? parsed.message.type : parsed.kind === 'invalid' ? parsed.type : undefined;
  return type !== undefined && LEAD_ONLY_TYPES.includes(type) ? type : undefined;
}

/**
 * The policy actions of giving a task to `owner` as `actor`: assigning it, and the task_assignment
 * message that tells the owner (an assignment notice is a message from its assigner). None when
 * the actor takes it itself.
 */
export function assignmentActions(owner: string | null | undefined, actor: string): PolicyAction[] {
  if (owner === undefined || owner === null || owner === '' || owner === actor) return [];
  return [
    { rule: 'assignTasks', owner },
    { rule: 'message', to: owner },
  ];
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
 * @throws INVALID_ARGUMENT (unknown rule), USAGE (a name that is no member), NOT_PERMITTED (not the lead), TEAM_NOT_FOUND
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
    requireKnownNames(config, c);
    patch[`policy.${c.rule}`] = c.who === undefined ? null : [...c.who];
  }
  const done = await store.updateSettings(options.team, patch, opOf(options, options.as ?? lead));
  return done.value.settings.policy ?? {};
}

/**
 * A policy names members: each name in `who` (besides `*` and `@lead`), and the sender of a
 * `message.<sender>` rule, must be one — a misspelt name would silently grant nothing.
 * @throws USAGE naming the name and the members
 */
function requireKnownNames(config: TeamConfig, change: PolicyChange): void {
  const members = config.members.map((m) => m.name);
  const sender = change.rule.startsWith('message.') ? change.rule.slice('message.'.length) : undefined;
  const names = [...(sender !== undefined && sender !== '*' ? [sender] : []), ...(change.who ?? []).filter((w) => w !== '*' && w !== '@lead')];
  const unknown = names.find((n) => !members.includes(n));
  if (unknown === undefined) return;
  throw new MailroomError('USAGE', `Policy rule ${change.rule} names "${unknown}", who is not a member of team ${config.name}. Members: ${members.join(', ')}; or use * (every member) or @lead. Spawn the member first, then set the rule.`, {
    details: { rule: change.rule, name: unknown, members },
  });
}
