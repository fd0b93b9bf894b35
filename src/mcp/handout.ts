/**
 * Acknowledged hand-out over MCP (issue 21 item 1; docs/mcp.md "Delivery guarantee"): the
 * messages a `read_inbox` / `wait_for_message` returns are handed out under a lease of this
 * server's reader claim and marked read only when the client acknowledges them — by its next
 * `read_inbox` / `wait_for_message` (which acknowledges everything handed out by calls that had
 * returned when it arrived) or by the `ack` tool. A server killed before that loses nothing: its
 * leases are voided when the member's next reader takes the claim over (or expire after
 * {@link MCP_LEASE_MS}), and the messages come again, same msg_id, with their delivery count.
 * Every take and acknowledgement is fenced with the claim token: a server whose claim was taken
 * over gets READER_FENCED and can neither take nor acknowledge.
 */
import { entryKey } from '../domain/entries.js';
import { isMailroomError } from '../errors.js';
import type { Lease } from '../store/team-store.js';
import type { Stores } from '../store/selection.js';

/**
 * How long a lease handed to an MCP client holds its messages without an acknowledgement (ms).
 * Its end matters only when no next reader takes the claim over (a takeover voids it at once); an
 * acknowledgement after it still marks the messages unless another reader took them meanwhile.
 */
export const MCP_LEASE_MS = 10 * 60_000;

/** One lease handed to the client and not acknowledged yet. */
export interface HandedLease {
  id: string;
  /** Entry keys (msg_id, or from+timestamp+text) it still holds. */
  keys: string[];
}

/** What an `ack` did. */
export interface AckOutcome {
  /** Messages that turned read. */
  acknowledged: number;
  /** Messages still handed out and not acknowledged. */
  pending: number;
  /** msg_ids asked for that this server has not handed out (or were acknowledged already). */
  unknown: string[];
}

/** Who hands out: the stores, the team, the member, and the claim token (throws when the claim is gone). */
export interface HandOutOwner {
  readonly store: Stores;
  readonly team: string;
  readonly me: string;
  readerToken(): string;
}

/** The leases this server handed to its client and not acknowledged yet. */
export class HandOut {
  private pending: HandedLease[] = [];
  /** Leases given back ({@link giveBack}) whose release the store did not answer yet: released before the next take. */
  private unreleased: string[] = [];

  constructor(private readonly owner: HandOutOwner) {}

  /** The leases handed out so far (a call acknowledges those that existed when it arrived). */
  delivered(): HandedLease[] {
    return this.pending.map((l) => ({ id: l.id, keys: [...l.keys] }));
  }

  /** How many messages are handed out and not acknowledged. */
  get pendingCount(): number {
    return this.pending.reduce((n, l) => n + l.keys.length, 0);
  }

  /** Takes up to `limit` unread messages under a fenced lease. @throws READER_FENCED, TEAMMATE_RUNNING */
  async take(limit: number): Promise<Lease> {
    const { store, team, me } = this.owner;
    const token = this.owner.readerToken();
    await this.releaseGivenBack();
    const { value } = await this.fenced(store.team.takeUnread(team, me, { reader: token, claim: token, limit, leaseMs: MCP_LEASE_MS }));
    if (value.id !== '') this.pending.push({ id: value.id, keys: value.entries.map(entryKey) });
    return value;
  }

  /**
   * Acknowledges `leases` (as {@link delivered} returned them): all their messages, or only those
   * whose key is in `only`. @returns how many turned read. @throws READER_FENCED (then nothing is pending any more)
   */
  async acknowledge(leases: readonly HandedLease[], only?: ReadonlySet<string>): Promise<number> {
    const { store, team, me } = this.owner;
    let count = 0;
    for (const given of leases) {
      const held = this.pending.find((l) => l.id === given.id);
      if (!held) continue;
      const keys = given.keys.filter((k) => held.keys.includes(k) && (only === undefined || only.has(k)));
      if (keys.length === 0) continue;
      const all = keys.length === held.keys.length;
      const token = this.owner.readerToken();
      const { value } = await this.fenced(store.team.acknowledge(team, me, held.id, all ? { claim: token } : { claim: token, keys }));
      count += value;
      held.keys = held.keys.filter((k) => !keys.includes(k));
      if (held.keys.length === 0) this.pending = this.pending.filter((l) => l !== held);
    }
    return count;
  }

  /**
   * Gives back a lease whose messages never reached the client (the call that took them failed
   * after the take, e.g. the store stopped answering before the reply was built): it is no longer
   * handed out, so no later call acknowledges it, and it is released in the store — its messages
   * are unread again for the next take, which marks them redelivered. When the store does not
   * answer the release either, it is retried before the next take; meanwhile the lease only holds
   * its messages (a takeover voids it, {@link MCP_LEASE_MS} ends it), it never marks them read.
   */
  async giveBack(leaseId: string): Promise<void> {
    this.pending = this.pending.filter((l) => l.id !== leaseId);
    this.unreleased.push(leaseId);
    await this.releaseGivenBack().catch(() => undefined);
  }

  private async releaseGivenBack(): Promise<void> {
    const { store, team, me } = this.owner;
    while (this.unreleased.length > 0) {
      await store.team.release(team, me, this.unreleased[0]!);
      this.unreleased.shift();
    }
  }

  /** The `ack` tool: acknowledges the given msg_ids (default: everything handed out). */
  async ack(msgIds?: readonly string[]): Promise<AckOutcome> {
    const handed = new Set(this.pending.flatMap((l) => l.keys));
    const only = msgIds === undefined ? undefined : new Set(msgIds);
    const acknowledged = await this.acknowledge(this.delivered(), only);
    return { acknowledged, pending: this.pendingCount, unknown: (msgIds ?? []).filter((id) => !handed.has(id)) };
  }

  /** Runs a fenced store step; a reader that was fenced out holds nothing any more. */
  private async fenced<T>(step: Promise<T>): Promise<T> {
    try {
      return await step;
    } catch (err) {
      if (isMailroomError(err, 'READER_FENCED')) this.pending = [];
      throw err;
    }
  }
}
