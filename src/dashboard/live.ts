/**
 * One team followed for the dashboard: the same feed and tracker as `watch` (core/follow.ts), the
 * open requests (core/requests-follow.ts), dead letters, member records and the bridge's members
 * re-read on a change; the journal read once to its end and then followed on the same feed for
 * each task's claim history (core/tasks/claim-history.ts), each message's delivery state
 * (core/messages/delivery-book.ts) and the path leases (re-listed when a
 * lease event arrives, and every 5 s while there are any, so an expired one goes); each change
 * becomes a new {@link WireState} handed to every subscriber (the page's event streams). Built
 * lazily, one per team, shared by every page open on it.
 */
import { hostname } from 'node:os';
import { followTeam, type Following } from '../core/live/follow.js';
import { followRequests, type RequestsFollower } from '../core/live/requests-follow.js';
import { listDeadLetters } from '../core/messages/dead-letters.js';
import { ClaimHistory } from '../core/tasks/claim-history.js';
import { DeliveryBook } from '../core/messages/delivery-book.js';
import { listLeases } from '../core/leases/path-leases.js';
import { bridgedMembers } from '../core/members/bridged-members.js';
import type { Cursor } from '../store/team-store.js';
import type { Stores } from '../store/selection.js';
import type { DeadLetter } from '../protocol/dead-letter.js';
import type { MemberRecord } from '../protocol/member-record.js';
import type { PathLease } from '../protocol/path-lease.js';
import type { TeamEventRecord } from '../protocol/events.js';
import { buildState } from './state.js';
import type { WireState } from './wire.js';

/** Options of {@link LiveTeam.open}. */
export interface LiveTeamOptions {
  stores: Stores;
  team: string;
  /** Who the page acts as (shown on the page); undefined: the lead. */
  as?: string | undefined;
  /** How the store is named on the page (password hidden). */
  storeLabel: string;
}

/** A followed team and its current page state. */
export class LiveTeam {
  private readonly listeners = new Set<(s: WireState) => void>();
  private state!: WireState;
  private deadLetters: DeadLetter[] = [];
  private records: MemberRecord[] = [];
  private bridged = new Set<string>();
  private leases: PathLease[] = [];
  private readonly claims = new ClaimHistory();
  private readonly deliveries = new DeliveryBook();
  private stopJournal: (() => void) | undefined;
  private leaseRead: Promise<void> | undefined;
  private following!: Following;
  private requests!: RequestsFollower;
  private ticker: NodeJS.Timeout | undefined;
  private pending: NodeJS.Timeout | undefined;
  private sideReads: Promise<void> | undefined;
  private closed = false;

  private constructor(private readonly o: LiveTeamOptions) {}

  /** Follows the team; resolves with its first state built. @throws TEAM_NOT_FOUND, STORE_UNAVAILABLE */
  static async open(o: LiveTeamOptions): Promise<LiveTeam> {
    const live = new LiveTeam(o);
    const target = { root: o.stores, team: o.team };
    live.requests = await followRequests(target, () => live.schedule());
    live.following = await followTeam({ store: o.stores, team: o.team, record: false, onUpdate: () => { void live.requests.refresh(); live.refreshSide(); } });
    const cursor = await live.readJournal();
    live.stopJournal = live.following.feed.events((events) => live.onJournal(events), cursor);
    await Promise.all([live.readSide(), live.readLeases()]);
    live.rebuild();
    // Presence turns dead by time alone (missed beats make no change to hint), and so does a lease.
    live.ticker = setInterval(() => {
      if (live.leases.length > 0) live.refreshLeases();
      live.schedule();
    }, 5000);
    live.ticker.unref();
    return live;
  }

  /** Folds the journal so far into the claim history. @returns where it ended */
  private async readJournal(): Promise<Cursor | undefined> {
    let since: Cursor | undefined;
    for (;;) {
      const page = await this.o.stores.team.readEvents(this.o.team, { since });
      this.claims.apply(page.events);
      this.deliveries.apply(page.events);
      if (page.events.length === 0 || page.cursor === since) return page.cursor;
      since = page.cursor;
    }
  }

  private onJournal(events: TeamEventRecord[]): void {
    this.claims.apply(events);
    this.deliveries.apply(events);
    if (events.some((e) => e.kind === 'lease')) this.refreshLeases();
    if (events.some((e) => e.kind === 'task' || e.kind === 'member' || e.kind === 'delivery')) this.schedule();
  }

  private readLeases(): Promise<void> {
    return listLeases({ root: this.o.stores, team: this.o.team }).then((l) => { this.leases = l; }, () => undefined);
  }

  /** Re-lists the leases (one listing at a time), then rebuilds. */
  private refreshLeases(): void {
    this.leaseRead ??= this.readLeases().finally(() => {
      this.leaseRead = undefined;
      this.schedule();
    });
  }

  /** The current state. */
  current(): WireState {
    return this.state;
  }

  /** Calls `listener` with every new state until the returned function is called. */
  subscribe(listener: (s: WireState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops following. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.pending) clearTimeout(this.pending);
    if (this.ticker) clearInterval(this.ticker);
    this.stopJournal?.();
    await this.following.close();
  }

  private async readSide(): Promise<void> {
    const target = { root: this.o.stores, team: this.o.team };
    [this.deadLetters, this.records, this.bridged] = await Promise.all([
      listDeadLetters(target).catch(() => this.deadLetters),
      this.o.stores.team.readMemberRecords(this.o.team).catch(() => this.records),
      bridgedMembers(this.o.stores, this.o.team).catch(() => this.bridged),
    ]);
  }

  /** Re-reads dead letters and member records (they have no feed of their own), then rebuilds. */
  private refreshSide(): void {
    this.schedule();
    this.sideReads ??= this.readSide().finally(() => {
      this.sideReads = undefined;
      this.schedule();
    });
  }

  /** Coalesces changes arriving within 10 ms into one new state. */
  private schedule(): void {
    if (this.closed || this.pending) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      this.rebuild();
      for (const l of this.listeners) l(this.state);
    }, 10);
  }

  private rebuild(): void {
    this.state = buildState({
      snapshot: this.following.current(),
      requests: this.requests.current(),
      deadLetters: this.deadLetters,
      records: this.records,
      claimsOf: (id) => this.claims.of(id),
      deliveries: this.deliveries,
      leases: this.leases,
      bridged: this.bridged,
      actor: this.o.as ?? this.following.current().lead,
      store: this.o.storeLabel,
      host: hostname(),
      now: Date.now(),
    });
  }
}
