/**
 * Undoing a registration whose teammate never ran (the process backend's child died during its
 * start-up, or could not be started): the member leaves config.json again, so the same
 * `team spawn` can be retried, and the spawn prompt it was sent is marked read — it was for a
 * member that never ran, and a retry delivers its own.
 */
import type { Member } from '../protocol/config.js';
import { storeOf, type TeamOptions } from './context.js';
import { markRead } from './inbox.js';
import { leadName } from './members.js';
import { removeMember } from './spawn.js';

/**
 * Removes `member` (as {@link removeMember}: the journal records it leaving) and marks read the
 * unread messages from the lead with text `prompt` that arrived since it joined.
 * @returns whether the member was still registered.
 */
export async function rollBackSpawn(options: TeamOptions & { member: Member; prompt?: string }): Promise<boolean> {
  const store = storeOf(options.root);
  const { member } = options;
  const lead = leadName(await store.readConfig(options.team));
  const removed = await removeMember({ ...options, name: member.agentId });
  if (options.prompt) {
    const since = member.joinedAt ?? 0;
    const entries = (await store.readInbox(options.team, member.name)).filter((e) => e.read !== true && e.from === lead && e.text === options.prompt && Date.parse(e.timestamp) >= since);
    if (entries.length > 0) await markRead({ ...options, agent: member.name, entries });
  }
  return removed !== undefined;
}
