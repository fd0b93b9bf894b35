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

/**
 * {@link byId} remembered between sync steps (issue 24 item 4: a step re-hashed every entry of both
 * copies of an inbox, ~2 000 SHA-256s at 1 000 messages of history, for the one that changed). The
 * index of a read is kept by the read's array, so a copy served from the bridge's cache costs
 * nothing; the id of an entry without `msg_id` is kept by its (from, timestamp, text) triple — the
 * input of its id, so a re-read finds it again without hashing. What a copy no longer holds is
 * forgotten with its next index, so the memory stays the size of the inboxes.
 */
export class SharedIds {
  private readonly indexes = new WeakMap<readonly InboxEntry[], Map<string, InboxEntry>>();
  private readonly derived = new Map<string, Map<string, string>>();

  constructor(private readonly team: string) {}

  /**
   * The entries of `entries`, the copy of the inbox of `to` on `side`, by shared id (as {@link byId}).
   * The map is shared with later calls on the same array: callers must not change it.
   */
  index(side: string, to: string, entries: readonly InboxEntry[]): ReadonlyMap<string, InboxEntry> {
    const hit = this.indexes.get(entries);
    if (hit) return hit;
    const k = `${side}\u0000${to}`;
    const known = this.derived.get(k);
    const next = new Map<string, string>();
    const map = new Map<string, InboxEntry>();
    for (const e of entries) {
      let id = e.msg_id;
      if (id === undefined) {
        const triple = tripleKey(e);
        id = known?.get(triple) ?? next.get(triple) ?? sharedId(this.team, to, e);
        next.set(triple, id);
      }
      if (!map.has(id)) map.set(id, e);
    }
    this.derived.set(k, next);
    this.indexes.set(entries, map);
    return map;
  }
}
