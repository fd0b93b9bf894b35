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
import { autoArchiveAllowed } from '../core/messages/inbox-archive.js';
import type { Lease } from '../store/team-store.js';
import type { Stores } from '../store/selection.js';
import { testFreeze } from '../test-freeze.js';

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
  /** The JSON-RPC id of the request whose reply carries it (a cancel of that request gives it back). */
  request?: string | number;
}

/**
 * The MCP request a take answers: its JSON-RPC id and the signal the SDK aborts when the client
 * cancels it (`notifications/cancelled`) or the transport closes while it runs.
 */
export interface HandOutRequest {
  id?: string | number | undefined;
  signal?: AbortSignal | undefined;
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
  /** The releases of given-back leases, in order (./handout.ts `releaseGivenBack`). */
  private releasing: Promise<void> = Promise.resolve();
  /** Whether an acknowledgement may move a large inbox's read head to the archive (asked once, at the first). */
  private archiveRead: Promise<boolean> | undefined;

  constructor(private readonly owner: HandOutOwner) {}

  /** The leases handed out so far (a call acknowledges those that existed when it arrived). */
  delivered(): HandedLease[] {
    return this.pending.map((l) => ({ id: l.id, keys: [...l.keys] }));
  }

  /**
   * The client cancelled request `requestId` (`notifications/cancelled`): its reply is dropped by
   * the client even when the server had already sent it (the two crossed), so the leases it carried
   * are given back ({@link giveBack}) — handed out again, marked redelivered, never acknowledged.
   */
  cancelled(requestId: string | number): void {
    for (const l of this.pending.filter((p) => p.request !== undefined && String(p.request) === String(requestId))) void this.giveBack(l.id);
  }

  /** How many messages are handed out and not acknowledged. */
  get pendingCount(): number {
    return this.pending.reduce((n, l) => n + l.keys.length, 0);
  }

  /**
   * Takes up to `limit` unread messages under a fenced lease for `request`: when its signal aborts
   * (the client cancelled it, the transport closed) the lease is given back ({@link giveBack}) —
   * the SDK drops the reply of an aborted request, so its messages never reached the client.
   * @throws READER_FENCED, TEAMMATE_RUNNING
   */
  async take(limit: number, request: HandOutRequest = {}): Promise<Lease> {
    const { store, team, me } = this.owner;
    const token = this.owner.readerToken();
    await this.releaseGivenBack();
    const { value } = await this.fenced(store.team.takeUnread(team, me, { reader: token, claim: token, limit, leaseMs: MCP_LEASE_MS }));
    if (value.id === '') return value;
    this.pending.push({ id: value.id, keys: value.entries.map(entryKey), ...(request.id !== undefined ? { request: request.id } : {}) });
    testFreeze('mcp-after-take', `${team}/${me}`);
    const signal = request.signal;
    if (signal?.aborted) await this.giveBack(value.id);
    else signal?.addEventListener('abort', () => void this.giveBack(value.id), { once: true });
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
      const archiveRead = await this.mayArchive();
      const { value } = await this.fenced(store.team.acknowledge(team, me, held.id, all ? { claim: token, archiveRead } : { claim: token, keys, archiveRead }));
      count += value;
      held.keys = held.keys.filter((k) => !keys.includes(k));
      if (held.keys.length === 0) this.pending = this.pending.filter((l) => l !== held);
    }
    return count;
  }

  /**
   * Whether this member's acknowledgements may archive (core/messages/inbox-archive.ts
   * `autoArchiveAllowed`: not when Claude Code's in-process teammate reads the same inbox by index).
   * Asked once per server; a config that cannot be read means no, this time (asked again next time).
   */
  private mayArchive(): Promise<boolean> {
    const { store, team, me } = this.owner;
    this.archiveRead ??= store.team.readConfig(team).then(
      (c) => autoArchiveAllowed(c, me),
      () => {
        this.archiveRead = undefined;
        return false;
      },
    );
    return this.archiveRead;
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
    // Once only, and never a lease acknowledged meanwhile (a later call received it: nothing to give back).
    if (!this.pending.some((l) => l.id === leaseId)) return;
    this.pending = this.pending.filter((l) => l.id !== leaseId);
    this.unreleased.push(leaseId);
    await this.releaseGivenBack().catch(() => undefined);
  }

  /**
   * Releases the given-back leases, one caller after the other: a take waits for a release a
   * cancel started (so the messages are unread again when it takes), and none is released twice.
   */
  private releaseGivenBack(): Promise<void> {
    const run = this.releasing.then(() => this.releaseAll());
    this.releasing = run.catch(() => undefined);
    return run;
  }

  private async releaseAll(): Promise<void> {
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
