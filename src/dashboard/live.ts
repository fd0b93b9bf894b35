/**
 * One team followed for the dashboard: the same feed and tracker as `watch` (core/follow.ts), the
 * open requests (core/requests-follow.ts), dead letters and member records re-read on a change;
 * each change becomes a new {@link WireState} handed to every subscriber (the page's event
 * streams). Built lazily, one per team, shared by every page open on it.
 */
import { hostname } from 'node:os';
import { followTeam, type Following } from '../core/live/follow.js';
import { followRequests, type RequestsFollower } from '../core/live/requests-follow.js';
import { listDeadLetters } from '../core/messages/dead-letters.js';
import type { Stores } from '../store/selection.js';
import type { DeadLetter } from '../protocol/dead-letter.js';
import type { MemberRecord } from '../protocol/member-record.js';
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
    await live.readSide();
    live.rebuild();
    // Presence turns dead by time alone (missed beats make no change to hint): judged again every 5 s.
    live.ticker = setInterval(() => live.schedule(), 5000);
    live.ticker.unref();
    return live;
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
    await this.following.close();
  }

  private async readSide(): Promise<void> {
    const target = { root: this.o.stores, team: this.o.team };
    [this.deadLetters, this.records] = await Promise.all([
      listDeadLetters(target).catch(() => this.deadLetters),
      this.o.stores.team.readMemberRecords(this.o.team).catch(() => this.records),
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
      actor: this.o.as ?? this.following.current().lead,
      store: this.o.storeLabel,
      host: hostname(),
      now: Date.now(),
    });
  }
}
