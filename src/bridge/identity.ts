/**
 * Message identity across the two sides of a bridge (docs/bridge.md "Identity"): an entry is known
 * by its `msg_id`; an entry without one (Claude Code 2.1.109 writes none) by an id derived from its
 * (from, timestamp, text) triple — the identity the store already uses — which its copy on the other
 * side carries as `msg_id`. So both copies of one message have one shared id, the same on every
 * machine and after any restart, and a destination that already holds it stores nothing again.
 */
import { idempotentMsgId, tripleKey } from '../domain/entries.js';
import type { InboxEntry } from '../protocol/inbox.js';

/** The shared id of `entry` in the inbox of `to` in `team`: its msg_id, else one derived from its triple. */
export function sharedId(team: string, to: string, entry: InboxEntry): string {
  return entry.msg_id ?? idempotentMsgId(team, to, `mailroom-bridge\u0000${tripleKey(entry)}`);
}

/** The copy of `entry` to append on the other side: every field kept, `msg_id` set to its shared id. */
export function bridgeCopy(entry: InboxEntry, id: string): InboxEntry {
  return { ...structuredClone(entry), msg_id: id };
}

/** The entries of an inbox by shared id (the first of an id wins, as stores keep ids unique). */
export function byId(team: string, to: string, entries: readonly InboxEntry[]): Map<string, InboxEntry> {
  const map = new Map<string, InboxEntry>();
  for (const e of entries) {
    const id = sharedId(team, to, e);
    if (!map.has(id)) map.set(id, e);
  }
  return map;
}
