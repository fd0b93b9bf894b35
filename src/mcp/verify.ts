/**
 * The signed-team guard on what MCP hands an agent (`read_inbox`, `wait_for_message`; docs/mcp.md
 * "Signed teams"): the same check as the runtime's (core/teams/signing.ts). A message that fails
 * verification is never handed over as genuine: it is listed with `verified: false`, `withheld:
 * true` and the reason, without its text or protocol type, and reported to the lead and the
 * journal. In a signed team every other message says `verified: true` or `false` (a sender that
 * cannot sign); in an open team nothing is added.
 */
import { ControlGuard, reportWithheld } from '../core/teams/signing.js';
import type { InboxEntry } from '../protocol/inbox.js';
import type { MessageView } from './inbox.js';
import type { McpSession } from './session.js';

/** A {@link MessageView} with the outcome of verification (signed teams). */
export type GuardedView = MessageView & { verified?: boolean; withheld?: true; reason?: string };

/** `views` (one per entry, same order) with the guard applied; obeyed control messages remembered. */
export async function guardViews(session: McpSession, entries: readonly InboxEntry[], views: readonly MessageView[]): Promise<GuardedView[]> {
  const guard = new ControlGuard(session.target, session.me);
  // A redelivery (handed out before, not acknowledged) is the same stored entry, not a copy appended again.
  const redelivered = new Set(entries.filter((_, i) => views[i]?.redelivered === true));
  const judged = await guard.judge(entries, { redelivered });
  if (judged.refused.length === 0 && judged.unverified.size === 0 && judged.verified.size === 0) return [...views];
  const refused = new Map(judged.refused.map((r) => [r.entry, r]));
  await reportWithheld(session.target, session.me, judged.refused, 'mcp', session.log);
  await guard.remember(entries.filter((e) => judged.verified.has(e)));
  return views.map((view, i): GuardedView => {
    const entry = entries[i]!;
    const r = refused.get(entry);
    if (r) {
      const { from, timestamp, msg_id } = view;
      return { from, text: `[withheld: ${r.reason}]`, timestamp, ...(msg_id !== undefined ? { msg_id } : {}), verified: false, withheld: true, reason: r.reason };
    }
    return { ...view, verified: judged.verified.has(entry) };
  });
}
