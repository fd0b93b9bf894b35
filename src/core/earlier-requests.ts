/**
 * A name can be used again after its member left. A `shutdown_request` still unread in the inbox
 * then was addressed to the earlier member — typically left by a forced `team stop` (nothing ran
 * the member to answer) or an interrupted one. The new member must not take it as its own, or it
 * would approve it and leave the team as soon as it starts (docs/runtime.md "Shutdown").
 */
import { parseMessageText } from '../protocol/structured.js';
import type { InboxEntry } from '../protocol/inbox.js';
import type { Store } from '../store/store.js';

/**
 * Marks `read: true`, under the inbox lock, every unread `shutdown_request` in `agent`'s inbox
 * timestamped before `joinedAt` (epoch ms) — requests sent before this member was registered. Every
 * reader (mailroom's runtime, MCP members, Claude Code's own teammates) takes only unread entries,
 * so the file says what happened: those requests are done with. Later requests are untouched.
 * @returns how many were marked. @throws FILE_CORRUPT, LOCK_TIMEOUT
 */
export async function retireEarlierShutdownRequests(store: Store, team: string, agent: string, joinedAt: number): Promise<number> {
  const stale = (entry: InboxEntry) => entry.read !== true && isShutdownRequest(entry) && Date.parse(entry.timestamp) < joinedAt;
  // Read first: most spawns find none, and then the inbox (Claude Code's file) is neither created nor rewritten.
  if (!(await store.readInbox(team, agent)).some(stale)) return 0;
  return store.updateInbox(team, agent, (entries) => {
    let marked = 0;
    for (const entry of entries.filter(stale)) {
      entry.read = true;
      marked++;
    }
    return marked;
  });
}

function isShutdownRequest(entry: InboxEntry): boolean {
  const parsed = parseMessageText(entry.text);
  return parsed.kind === 'structured' && parsed.message.type === 'shutdown_request';
}
