/**
 * Roster helpers over a team config: the lead, member lookup, MEMBER_NOT_FOUND errors.
 */
import { MailroomError } from '../errors.js';
import type { Member, TeamConfig } from '../protocol/config.js';
import { LEAD_NAME } from '../store/names.js';
import { closestMatch } from './suggest.js';

/** The lead: the member whose `agentId` equals `leadAgentId` (never assumed by name). */
export function leadOf(config: TeamConfig): Member | undefined {
  return config.members.find((m) => m.agentId === config.leadAgentId);
}

/** The lead's member name (`team-lead` unless the config says otherwise). */
export function leadName(config: TeamConfig): string {
  return leadOf(config)?.name ?? LEAD_NAME;
}

/** The member with exactly this name, or undefined. */
export function findMember(config: TeamConfig, name: string): Member | undefined {
  return config.members.find((m) => m.name === name);
}

/**
 * The member with this name; MEMBER_NOT_FOUND otherwise, listing the members and, when one is
 * close to the name given (`Alice` → `alice`, `bbo` → `bob`), naming it: "Did you mean "alice"?",
 * also as `details.suggestion`.
 */
export function requireMember(config: TeamConfig, name: string, role = 'member'): Member {
  const member = findMember(config, name);
  if (member) return member;
  const names = config.members.map((m) => m.name);
  const suggestion = closestMatch(name, names);
  throw new MailroomError(
    'MEMBER_NOT_FOUND',
    `No ${role} named "${name}" in team "${config.name}".${suggestion ? ` Did you mean "${suggestion}"?` : ''} Members: ${names.join(', ') || '(none)'}. ` +
      `Add one with \`mailroom team spawn ${/^[a-z0-9][a-z0-9-]{0,63}$/.test(name) ? name : '<name>'}\`.`,
    { details: { team: config.name, name, members: names, ...(suggestion ? { suggestion } : {}) } },
  );
}

/** True for members other than the lead. */
export function isTeammate(config: TeamConfig, member: Member): boolean {
  return member.agentId !== config.leadAgentId;
}
