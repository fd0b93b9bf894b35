/**
 * A teammate's view of its own inbox. Delivery is a lease (issue 9 item 1): {@link Mailbox.take}
 * hands out the unread entries in one store step (exactly once, whatever other readers do), in
 * delivery order; {@link Mailbox.acknowledge} marks them read once the model request that carried
 * them succeeded; {@link Mailbox.release} puts them back when it failed (../shared/cases/04: a
 * crash then loses nothing — the lease expires or goes with the reader claim, the entries are
 * unread for the restarted teammate). Reading never marks anything read.
 *
 * Entries released after a failed call are held back from this mailbox for a while (1 s, doubling
 * to 30 s while calls keep failing), so a model that fails every time is not called in a tight loop;
 * new mail is delivered at once, together with them.
 *
 * On a store whose take costs more than a read (files: TeamStore.lookUnread), or whose appends
 * publish what the recipient's take would hand out (Redis: TeamStore.hintedLook), a teammate woken by
 * a send only looks at its unread entries ({@link Mailbox.prefetch}, {@link Mailbox.takeLooked}):
 * its step makes the model request for them and takes after, acting on the answer only when the
 * take handed out exactly those ({@link Mailbox.sameDelivery}; src/runtime/turn.ts `commitLooked`).
 */
import { entryKey } from '../../domain/entries.js';
import type { InboxEntry } from '../../protocol/inbox.js';
import { isUnread } from '../../protocol/inbox.js';
import type { Stores } from '../../store/selection.js';
import { orderForDelivery } from './order.js';
import { traceMark } from '../../trace-marks.js';

/**
 * Read entries a mailroom-run teammate lets pile up in its own inbox before it moves them to the
 * archive (docs/format.md "Inbox archive"): the runtime is this inbox's only reader and matches
 * entries by msg_id, so shifting indices is safe here, and a send's cost stays flat (case 03).
 */
export const ARCHIVE_AFTER_READ = 200;

/**
 * How long a delivery stays handed out without an acknowledgement (ms): long enough for a slow
 * model call; a teammate killed meanwhile does not make its successor wait for it, since a new
 * reader claim releases the dead holder's leases at once.
 */
export const DELIVERY_LEASE_MS = 30 * 60_000;
/** First hold-back after a failed model call (ms), doubling per consecutive failure up to {@link MAX_HOLD_BACK_MS}. */
export const FIRST_HOLD_BACK_MS = 1_000;
/** Longest hold-back (ms). */
export const MAX_HOLD_BACK_MS = 30_000;

/** Entries handed out for one model request. */
export interface Delivery {
  /** The lease id ('' when nothing was taken). */
  lease: string;
  /** In delivery order (shutdown_request, the lead's, then oldest first). */
  entries: InboxEntry[];
  /** The store's view stamp at the take ({@link Lease.viewStamp}; absent on a store without one, and when nothing was asked of the store). */
  viewStamp?: string | undefined;
}

/** The inbox of one teammate. */
export class Mailbox {
  private readonly inFlight = new Set<string>();
  private readonly heldBack = new Map<string, number>();
  private failures = 0;
  /** Read entries seen in the inbox at the last read. */
  private readSeen = 0;
  /** A delivery taken by {@link prefetch} (or given back by {@link hold}), handed out by the next {@link take}. */
  private prefetched: Delivery | undefined;
  /** Entries {@link prefetch} saw on a store that can look before it takes: not taken yet (see {@link takeLooked}). */
  private looked: Delivery | undefined;

  constructor(
    private readonly stores: Stores,
    private readonly team: string,
    private readonly agent: string,
    private readonly lead: string,
    /**
     * This reader's id (its reader-claim token), recorded on every lease and named as the fence of
     * every take and acknowledgement (TakeOptions.claim): a reader whose claim was taken
     * over (paused or starved past its ttl, presumed dead) is refused READER_FENCED in the store's
     * own step — nothing handed out, nothing marked read.
     */
    private readonly reader: string,
    /** Awaits a fenced step (ReaderLease.fence: a READER_FENCED refusal marks the claim lost); default: as it is. */
    private readonly fence: <T>(step: Promise<T>) => Promise<T> = (step) => step,
    /**
     * Resolves while this reader still holds its claim, else throws READER_FENCED
     * (ReaderLease.confirm): what {@link acknowledge} awaits when nothing was handed out, so an
     * answer with no lease to fence it does not act either; default: nothing to confirm.
     */
    private readonly confirm: () => Promise<void> = () => Promise.resolve(),
  ) {}

  /** Unread entries not in flight and not held back, in delivery order (a read: takes nothing). */
  async unread(): Promise<InboxEntry[]> {
    const entries = await this.stores.team.readInbox(this.team, this.agent);
    this.readSeen = entries.length - entries.filter(isUnread).length;
    const now = Date.now();
    for (const [key, until] of this.heldBack) if (until <= now) this.heldBack.delete(key);
    return orderForDelivery(entries.filter((e) => isUnread(e) && !this.inFlight.has(entryKey(e)) && !(this.heldBack.get(entryKey(e))! > now)), this.lead);
  }

  /** True when at least one entry is unread and neither in flight nor held back. */
  async hasUnread(): Promise<boolean> {
    return (await this.unread()).length > 0;
  }

  /** When the earliest held-back entry may be delivered again (epoch ms), if any is held back. */
  retryAt(): number | undefined {
    const times = [...this.heldBack.values()].filter((t) => t > Date.now());
    return times.length > 0 ? Math.min(...times) : undefined;
  }

  /**
   * Takes the unread entries for a model request (none while every unread one is held back and
   * nothing new came in): they are handed out until {@link acknowledge} or {@link release}.
   */
  async take(): Promise<Delivery> {
    const early = this.prefetched;
    this.prefetched = undefined;
    this.looked = undefined;
    if (early) return early;
    // Held-back entries (a failed call) wait for their time unless something new came in; otherwise
    // the store's take looks for unread entries itself.
    if (this.heldBack.size > 0 && !(await this.hasUnread())) return { lease: '', entries: [] };
    traceMark('mailbox-take');
    const { value } = await this.fence(this.stores.team.takeUnread(this.team, this.agent, { reader: this.reader, claim: this.reader, leaseMs: DELIVERY_LEASE_MS }));
    for (const e of value.entries) {
      this.inFlight.add(entryKey(e));
      this.heldBack.delete(entryKey(e));
    }
    return { lease: value.id, entries: orderForDelivery(value.entries, this.lead), viewStamp: value.viewStamp };
  }

  /**
   * Takes the unread entries now, for the next {@link take} (a send woke an idle teammate: one take
   * instead of a read that finds the mail and a take that reads it again). @returns whether any were
   * taken. They stay handed out to this reader, like any take, until acknowledged or released.
   * On a store with `TeamStore.hintedLook` or `TeamStore.lookUnread` (and nothing in flight or
   * held back) it only looks — at the look the waking append published, else by a read: the
   * entries are for {@link takeLooked}, and nothing is taken yet.
   */
  async prefetch(): Promise<boolean> {
    if (this.prefetched || this.looked) return true;
    const quiet = this.heldBack.size === 0 && this.inFlight.size === 0;
    // A look the append that woke this teammate published (Redis): no store call at all.
    const hinted = quiet ? this.stores.team.hintedLook?.(this.team, this.agent) : undefined;
    if (hinted && hinted.entries.length > 0) {
      traceMark('look-hinted');
      this.looked = { lease: '', entries: orderForDelivery(hinted.entries, this.lead), viewStamp: hinted.viewStamp };
      return true;
    }
    const look = quiet ? this.stores.team.lookUnread : undefined;
    if (look) {
      // A store whose take costs more than a read (files): look now, take once the request is made (turn.ts).
      const seen = await look.call(this.stores.team, this.team, this.agent);
      if (seen.entries.length === 0) return false;
      this.looked = { lease: '', entries: orderForDelivery(seen.entries, this.lead), viewStamp: seen.viewStamp };
      return true;
    }
    const delivery = await this.take();
    if (delivery.entries.length === 0) return false;
    this.prefetched = delivery;
    return true;
  }

  /**
   * The entries {@link prefetch} looked at, not taken (once; `undefined` when it took them, or
   * there was no look). Nothing they lead to may act until {@link take} handed out exactly these
   * ({@link Mailbox.sameDelivery}): the take is the only hand-out, and it may fail or find others.
   */
  takeLooked(): Delivery | undefined {
    const looked = this.looked;
    this.looked = undefined;
    return looked;
  }

  /** Gives a taken delivery back for the next {@link take} (a step that took it but could not use it as it was). */
  hold(delivery: Delivery): void {
    this.prefetched = delivery;
  }

  /**
   * Whether `taken` (a take's) hands out exactly the entries of `looked` (a look's), in the same
   * order and as they were looked at (every field but `read`: an entry rewritten in place under
   * its msg_id, as a writer with no lock can, is another entry — the model saw the old text), under
   * what `sameView` calls the same view of the team (equal stamps when absent).
   */
  static sameDelivery(looked: Delivery, taken: Delivery, sameView?: (a: string, b: string) => boolean): boolean {
    if (taken.entries.length !== looked.entries.length) return false;
    if (!taken.entries.every((e, i) => sameEntry(e, looked.entries[i]!))) return false;
    const [a, b] = [looked.viewStamp, taken.viewStamp];
    return a === b || (a !== undefined && b !== undefined && sameView?.(a, b) === true);
  }

  /**
   * Marks a delivery's entries read (the request that carried them succeeded): the step that lets
   * the answer act. With nothing handed out (a turn a task started) it only confirms this reader
   * still holds its claim. @throws READER_FENCED (another runtime took the claim over: nothing marked, the answer must not act)
   */
  async acknowledge(delivery: Delivery): Promise<void> {
    this.failures = 0;
    if (delivery.lease === '') return this.confirm();
    // The runtime is this inbox's only reader and matches by msg_id: a large inbox's read head may move in the same step.
    await this.fence(this.stores.team.acknowledge(this.team, this.agent, delivery.lease, { claim: this.reader, archiveRead: true }));
    for (const e of delivery.entries) this.inFlight.delete(entryKey(e));
    if (this.readSeen + delivery.entries.length >= ARCHIVE_AFTER_READ) {
      await this.stores.team.archiveInbox(this.team, this.agent);
      this.readSeen = 0;
    }
  }

  /** Puts a delivery's entries back to unread (the request failed); this mailbox holds them back a while. */
  async release(delivery: Delivery): Promise<void> {
    if (delivery.lease === '') return;
    const until = Date.now() + Math.min(MAX_HOLD_BACK_MS, FIRST_HOLD_BACK_MS * 2 ** this.failures);
    this.failures++;
    for (const e of delivery.entries) {
      this.inFlight.delete(entryKey(e));
      this.heldBack.set(entryKey(e), until);
    }
    await this.stores.team.release(this.team, this.agent, delivery.lease);
  }
}

/** Whether `a` and `b` are the same entry with the same content (`read` aside; key order as read). */
function sameEntry(a: InboxEntry, b: InboxEntry): boolean {
  if (a === b) return true;
  if (entryKey(a) !== entryKey(b)) return false;
  const { read: _a, ...restA } = a;
  const { read: _b, ...restB } = b;
  return JSON.stringify(restA) === JSON.stringify(restB);
}
