/**
 * Roster helpers over a team config: the lead, member lookup, MEMBER_NOT_FOUND errors.
 */
import { MailroomError } from '../errors.js';
import type { Member, TeamConfig } from '../protocol/config.js';
import { LEAD_NAME } from '../store/names.js';

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

/** The member with this name; MEMBER_NOT_FOUND (listing the members) otherwise. */
export function requireMember(config: TeamConfig, name: string, role = 'member'): Member {
  const member = findMember(config, name);
  if (member) return member;
  const names = config.members.map((m) => m.name);
  throw new MailroomError(
    'MEMBER_NOT_FOUND',
    `No ${role} named "${name}" in team "${config.name}". Members: ${names.join(', ') || '(none)'}. ` +
      `Add one with \`mailroom team spawn ${/^[a-z0-9][a-z0-9-]{0,63}$/.test(name) ? name : '<name>'}\`.`,
    { details: { team: config.name, name, members: names } },
  );
}

/** True for members other than the lead. */
export function isTeammate(config: TeamConfig, member: Member): boolean {
  return member.agentId !== config.leadAgentId;
}
