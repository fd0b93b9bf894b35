/**
 * Undoing a registration whose teammate never ran (the process backend's child died during its
 * start-up, or could not be started): the member leaves the roster again, so the same `team spawn`
 * can be retried, and the spawn prompt it was sent is marked read — it was for a member that never
 * ran, and a retry delivers its own.
 */
import { entryKey } from '../../domain/entries.js';
import { leadName } from '../../domain/roster.js';
import type { Member } from '../../protocol/config.js';
import { opOf, teamOf, type TeamOptions } from '../context.js';
import { removeMember } from './spawn.js';

/**
 * Removes `member` (as {@link removeMember}: the journal records it leaving) and marks read the
 * unread messages from the lead with text `prompt` that arrived since it joined.
 * @returns whether the member was still registered.
 */
export async function rollBackSpawn(options: TeamOptions & { member: Member; prompt?: string }): Promise<boolean> {
  const store = teamOf(options);
  const { member } = options;
  const lead = leadName(await store.readConfig(options.team));
  const removed = await removeMember({ ...options, name: member.agentId });
  if (options.prompt) {
    const since = member.joinedAt ?? 0;
    const keys = (await store.readInbox(options.team, member.name)).filter((e) => e.read !== true && e.from === lead && e.text === options.prompt && Date.parse(e.timestamp) >= since).map(entryKey);
    if (keys.length > 0) await store.markRead(options.team, member.name, keys, opOf(options));
  }
  return removed !== undefined;
}
