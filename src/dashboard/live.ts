/**
 * One team followed for the dashboard: the same feed and tracker as `watch` (core/follow.ts), the
 * open requests (core/requests-follow.ts), dead letters, member records and the bridge's members
 * re-read on a change; the journal read once to its end and then followed on the same feed for
 * each task's claim history (core/tasks/claim-history.ts), each message's delivery state
 * (core/messages/delivery-book.ts) and the path leases (re-listed when a
 * lease event arrives, and every 5 s while there are any, so an expired one goes); each change
 * becomes a new {@link WireState}, diffed against the last one (src/dashboard/patch.ts): only the
 * {@link WirePatch} goes to the subscribers (the page's event streams), serialised once for all of
 * them; a stream that opens gets the whole state first. A store update is pushed as soon as the
 * tracker has applied it; the slower re-reads it triggers (open requests, dead letters, member
 * records) run after that push and patch what they change. Built lazily, one per team, shared by
 * every page open on it.
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
import { buildState, olderMessages, WireCache } from './state.js';
import { diffStates } from './patch.js';
import type { TrackerUpdate } from '../core/live/tracker.js';
import type { WireMessage, WirePatch, WireState } from './wire.js';

/** What subscribers of a {@link LiveTeam} get per change: the patch, and its `event: patch` text. */
export interface LivePatch {
  patch: WirePatch;
  /** The server-sent event carrying it, serialised once for every stream. */
  text: string;
}

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
  private readonly listeners = new Set<(p: LivePatch) => void>();
  private state!: WireState;
  private stateText: string | undefined;
  private readonly cache = new WireCache();
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
    live.following = await followTeam({ store: o.stores, team: o.team, record: false, onUpdate: (u) => live.onUpdate(u) });
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

  /** A store update: pushed at once, then the listings it may have changed are read again. */
  private onUpdate(update: TrackerUpdate): void {
    if (this.closed) return;
    this.push();
    // Plain messages and state changes open or answer no request; structured ones, members and the team may.
    if (update.events.some((e) => (e.kind !== 'message' && e.kind !== 'state') || (e.kind === 'message' && e.message.parsed.kind !== 'plain'))) void this.requests.refresh();
    this.refreshSide();
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

  /** The current state as the `event: state` that opens a stream (serialised once per version). */
  currentEvent(): string {
    this.stateText ??= `event: state\ndata: ${JSON.stringify(this.state)}\n\n`;
    return this.stateText;
  }

  /** Up to `limit` messages older than the one keyed `before` (oldest first), for paging back past the state's window. */
  older(before: string, limit: number): WireMessage[] {
    return olderMessages(this.following.current(), this.cache, this.deliveries, before, limit);
  }

  /** Calls `listener` with every patch until the returned function is called. */
  subscribe(listener: (p: LivePatch) => void): () => void {
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
      this.push();
    }, 10);
  }

  /** Rebuilds and hands the patch (if anything changed) to every subscriber. */
  private push(): void {
    if (this.closed) return;
    const before = this.state;
    this.rebuild();
    const patch = diffStates(before, this.state);
    if (!patch) {
      this.state = before;
      return;
    }
    this.stateText = undefined;
    const p = { patch, text: `event: patch\ndata: ${JSON.stringify(patch)}\n\n` };
    for (const l of this.listeners) l(p);
  }

  private rebuild(): void {
    this.state = buildState({
      version: (this.state?.version ?? 0) + 1,
      cache: this.cache,
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
