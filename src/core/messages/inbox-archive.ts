/**
 * When an inbox's read history may be moved to its archive (docs/format.md "Inbox archive"). A send
 * never archives (issue 24 item 4); mailroom's readers do, in the step that marks entries read
 * (`ArchiveOnRead` in src/store/team-store.ts), and so does the archiver beside the sends
 * (./inbox-archiver.ts) for inboxes Claude Code reads.
 *
 * Archiving removes read entries from the head of the live array, so every later entry's index
 * shifts. Readers that match entries by content are unaffected: Claude Code's leads and pane
 * teammates (2.1.39 and 2.1.109 mark everything read; 2.1.332 removes delivered entries by
 * from + timestamp + text, and drops read ones itself) and mailroom (msg_id, or the same triple).
 * Claude Code 2.1.109 *in-process* teammates mark one entry by its array index, so a shift between
 * their read and their mark would flag the wrong entry read: their inboxes are archived only on
 * explicit request, by a reader that knows no such teammate is running.
 */
import type { TeamConfig } from '../../protocol/config.js';
import { findMember, leadName, requireMember } from '../../domain/roster.js';
import { hasInProcessShape } from '../../protocol/backend.js';
import { opOf, teamOf, type TeamOptions } from '../context.js';

/**
 * True when `agent`'s read history may be archived without an explicit request (by a mailroom
 * reader's acknowledgement or the archiver): the agent is the lead, or a member without Claude
 * Code's in-process shape (`hasInProcessShape`: a pane teammate, or a member mailroom runs,
 * recorded with no pane and no backend type).
 */
export function autoArchiveAllowed(config: TeamConfig, agent: string): boolean {
  const member = findMember(config, agent);
  if (!member) return false;
  if (member.agentId === config.leadAgentId) return true;
  return !hasInProcessShape(member);
}

/** Input of {@link archiveInbox}. */
export interface ArchiveInboxOptions extends TeamOptions {
  /** Whose inbox (default: the lead's). */
  agent?: string;
}

/**
 * Moves the read entries at the head of an inbox to its archive now, whatever its size. Only call
 * it for an in-process teammate's inbox when no Claude Code 2.1.109 process reads that inbox.
 * @returns how many entries were moved.
 * @throws TEAM_NOT_FOUND, MEMBER_NOT_FOUND, FILE_CORRUPT, LOCK_TIMEOUT
 */
export async function archiveInbox(options: ArchiveInboxOptions): Promise<number> {
  const store = teamOf(options);
  const config = await store.readConfig(options.team);
  const agent = options.agent ?? leadName(config);
  if (!(await store.listInboxes(options.team)).some((i) => i.name === agent)) requireMember(config, agent, 'agent');
  return (await store.archiveInbox(options.team, agent, opOf(options))).value;
}
