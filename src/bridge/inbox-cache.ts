/**
 * The last read of each inbox copy, per side, kept until that side's store hints a change to it
 * (docs/bridge.md "Push, not polling"): a step re-reads only the side that changed, so a message
 * costs one inbox read per step instead of two. A generation per copy, bumped by every hint, keeps
 * a read that raced a hint from being cached. A lost hint costs nothing but time: appends are
 * checked by msg_id in the store, and the presence tick drops every cached copy.
 */
import type { InboxEntry } from '../protocol/inbox.js';
import type { TeamStore } from '../store/team-store.js';

/** Which copy. */
export type Side = 'local' | 'remote';

/** Cached inbox reads of one team. */
export class InboxCache {
  private readonly entries = new Map<string, InboxEntry[]>();
  private readonly gens = new Map<string, number>();

  /** The copy changed (a hint, or this bridge wrote it): the next read goes to the store. */
  invalidate(side: Side, member: string): void {
    const k = `${side}\u0000${member}`;
    this.entries.delete(k);
    this.gens.set(k, (this.gens.get(k) ?? 0) + 1);
  }

  /** Every copy changed (a reconnect, the presence tick). */
  clear(): void {
    for (const k of [...this.entries.keys()]) {
      const [side, member] = k.split('\u0000') as [Side, string];
      this.invalidate(side, member);
    }
  }

  /** The copy's entries, from the cache or the store. */
  async read(side: Side, store: TeamStore, team: string, member: string): Promise<InboxEntry[]> {
    const k = `${side}\u0000${member}`;
    const hit = this.entries.get(k);
    if (hit) return hit;
    const gen = this.gens.get(k) ?? 0;
    const read = await store.readInbox(team, member);
    if ((this.gens.get(k) ?? 0) === gen) this.entries.set(k, read);
    return read;
  }
}
