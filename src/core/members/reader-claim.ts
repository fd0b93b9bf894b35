/**
 * Holding a member's reader claim for as long as a runtime reads its inbox (issue 9 item 1): one
 * consumer per member — a `mailroom agent`, a `mailroom mcp` server, an in-process teammate (`mailroom
 * run`, `InProcessHost`, `runTeammate`). A second is refused with TEAMMATE_RUNNING naming the holder.
 *
 * The claim is renewed every {@link BEAT_INTERVAL_MS} (5 s) and dies {@link DEFAULT_READER_TTL_MS}
 * (15 s, three beats) after its last beat. A holder that refuses us but is proved dead on this host
 * — its pid has no process, or its pid is ours with another start instant (a previous process that
 * had our pid) — is evicted at once (compare-and-set on host, pid, start instant), so a restarted
 * runtime does not wait out the ttl; the evicted holder's leases go back at once.
 */
import { livenessTiming } from './liveness.js';
import { isMailroomError, MailroomError } from '../../errors.js';
import { BEAT_INTERVAL_MS, DEFAULT_READER_TTL_MS } from '../../domain/reader-claims.js';
import type { ReaderClaim, ReaderHolder } from '../../store/team-store.js';
import type { StoreRef } from '../context.js';
import { releaseStoppedMemberLeases } from '../leases/dead-leases.js';

export { BEAT_INTERVAL_MS, DEFAULT_READER_TTL_MS };

/** This process's start instant (epoch ms), the `startedAt` of every claim it holds. */
export const PROCESS_STARTED_AT = Math.round(Date.now() - process.uptime() * 1000);

/** Options of {@link ReaderLease.take}. */
export interface HoldReaderOptions {
  /** Called (once) when the claim was lost: another reader took it over after this one was presumed dead. */
  onLost?: (error: MailroomError) => void;
  /** Receives a line when a beat fails for another reason (it is retried at the next interval). */
  log?: (line: string) => void;
  /** Beat period (ms; default {@link BEAT_INTERVAL_MS}). */
  beatMs?: number;
  /** Claim ttl (ms; default {@link DEFAULT_READER_TTL_MS}). */
  ttlMs?: number;
  /**
   * Keep the member's `isActive` in config.json as Claude Code does (true while working, false
   * otherwise), written only when {@link ReaderLease.setState} changes it (default true).
   */
  syncActive?: boolean;
}

/** A reader claim this process holds, renewed until {@link ReaderLease.release}. */
export class ReaderLease {
  private state: ReaderClaim['state'] = 'idle';
  /** The `isActive` this lease last wrote (undefined: none yet). */
  private written: boolean | undefined;
  private writing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;
  private readonly lost = new AbortController();
  private released = false;
  private readonly beatMs: number;
  /**
   * The store's time (its clock: Redis `TIME`, a file's mtime) of the first beat of the current run
   * of beats that landed without a gap of more than two beat periods, and of the last one.
   */
  private okSince: number;
  private lastOk: number;

  private constructor(
    private readonly root: StoreRef,
    readonly team: string,
    readonly member: string,
    readonly claim: ReaderClaim,
    private readonly options: HoldReaderOptions,
  ) {
    this.beatMs = options.beatMs ?? livenessTiming().beatMs;
    this.okSince = this.lastOk = claim.lastBeatAt; // the claim counts as a beat
    this.timer = setInterval(() => void this.beat(), this.beatMs);
    this.timer.unref();
  }

  /**
   * Takes the member's reader claim for a runtime of `kind` in this process.
   * @throws TEAMMATE_RUNNING naming the live holder, MEMBER_NOT_FOUND, TEAM_NOT_FOUND
   */
  static async take(root: StoreRef, team: string, member: string, kind: ReaderHolder['kind'], options: HoldReaderOptions = {}): Promise<ReaderLease> {
    const stores = root;
    const holder: ReaderHolder = { kind, host: stores.host.hostId, pid: process.pid, startedAt: PROCESS_STARTED_AT };
    const ttl = { ttlMs: options.ttlMs ?? livenessTiming().ttlMs };
    try {
      return new ReaderLease(root, team, member, (await stores.team.claimReader(team, member, holder, ttl)).value, options);
    } catch (err) {
      const dead = await provedDead(root, err);
      if (!dead) throw err;
      const { value } = await stores.team.claimReader(team, member, holder, { ...ttl, evict: dead });
      return new ReaderLease(root, team, member, value, options);
    }
  }

  /** The token that identifies this reader (use it as the `reader` of its takes). */
  get token(): string {
    return this.claim.token;
  }

  /** Aborted once the claim is lost. */
  get signal(): AbortSignal {
    return this.lost.signal;
  }

  /**
   * Records what the holder is doing (`working`/`idle`). A change is beaten at once (presence shows
   * it within one store write) and, unless `syncActive` is false, written to the member's
   * `isActive` in config.json (Claude Code's liveness flag: true while working). Resolves once both
   * are stored (callers need not wait). Never rejects.
   */
  async setState(state: ReaderClaim['state']): Promise<void> {
    const changed = this.state !== state;
    this.state = state;
    if (this.released) return;
    this.syncActive(state === 'working');
    await Promise.all([changed ? this.beat({ fresh: true }) : this.beating, this.writing]);
  }

  /** Waits until the `isActive` writes asked for so far are done (tests, shutdown). */
  async settled(): Promise<void> {
    await this.writing;
  }

  /** How many times this lease rewrote the member's `isActive` (benchmarks). */
  get activeWrites(): number {
    return this.writes;
  }
  private writes = 0;

  private syncActive(active: boolean): void {
    if (this.options.syncActive === false || this.written === active) return;
    this.written = active;
    this.writing = this.writing.then(() => this.writeActive(active));
  }

  private async writeActive(active: boolean): Promise<void> {
    try {
      const { events } = await this.root.team.updateMember(this.team, this.member, { isActive: active }, { actor: this.member });
      if (events.length > 0) this.writes++;
    } catch (err) {
      // The member left (approved shutdown) or the team is gone: there is no flag to keep.
      if (isMailroomError(err, 'MEMBER_NOT_FOUND') || isMailroomError(err, 'TEAM_NOT_FOUND')) return;
      this.options.log?.(`could not set isActive of ${this.member}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /**
   * Renews the claim now (the timer does it every beat period). A beat already in flight serves,
   * unless `fresh` (the state changed since it started): then another follows it.
   */
  async beat(options: { fresh?: boolean } = {}): Promise<void> {
    if (this.released || this.lost.signal.aborted) return;
    if (options.fresh && this.beating) {
      const next = this.beating.then(() => this.beat());
      return next;
    }
    this.beating ??= this.root
      .team.beat(this.team, this.member, this.token, this.state)
      .then(
        ({ value }) => this.landed(value.lastBeatAt),
        (err: unknown) => {
          if (isMailroomError(err, 'TEAMMATE_RUNNING')) return this.markLost(err);
          this.options.log?.(`could not renew the reader claim of ${this.member} (retrying): ${err instanceof Error ? err.message : String(err)}`);
        },
      )
      .finally(() => (this.beating = undefined));
    await this.beating;
  }

  /** A beat landed at `at` (the store's clock): a gap of more than two beat periods since the last one starts a new run. */
  private landed(at: number): void {
    this.landings++;
    this.landedLocally = performance.now();
    if (at - this.lastOk > 2 * this.beatMs) this.okSince = at;
    if (at > this.lastOk) this.lastOk = at;
  }
  private landings = 0;
  /** `performance.now()` when the last beat landed (-Infinity: none yet). */
  private landedLocally = Number.NEGATIVE_INFINITY;

  /**
   * Beats now and says, on the store's clock, when that beat landed (`at`) and for how long before
   * it this lease's beats had landed without a gap of more than two beat periods (`continuousMs`).
   * Undefined when the beat did not land (the store is unreachable, or the claim was lost). A
   * sweeper holding this lease judges others at `at` and only over a window its own presence covers
   * (issue 21 item 3: a store stall, or a frozen sweeper, is no one's death).
   *
   * A beat of this lease that landed less than one beat period ago (by this process's monotonic
   * clock) serves instead of a new one (issue 24 item 3: a sweep each beat period costs no second
   * write): judging at that earlier store time only makes every member look more recent, never
   * more silent, and the window covered ends there too.
   */
  async presence(): Promise<{ at: number; continuousMs: number } | undefined> {
    if (!this.released && !this.lost.signal.aborted && performance.now() - this.landedLocally < this.beatMs) return { at: this.lastOk, continuousMs: this.lastOk - this.okSince };
    const before = this.landings;
    await this.beat({ fresh: true });
    if (this.landings === before) return undefined; // nothing landed since the call
    return { at: this.lastOk, continuousMs: this.lastOk - this.okSince };
  }

  /**
   * Stops renewing and gives the claim up (its leases go back, its path leases are released); a member this lease marked active
   * is marked `isActive: false` first (stopped). Never throws.
   */
  async release(): Promise<void> {
    if (this.released) return;
    if (this.written === true) this.syncActive(false);
    this.released = true;
    if (this.timer) clearInterval(this.timer);
    await this.writing;
    await this.beating;
    await this.root.team.releaseReader(this.team, this.member, this.token).catch(() => undefined);
    // A member that stops cleanly gives its path leases up too (docs/leases.md); one whose claim was taken over does not.
    if (!this.lost.signal.aborted) await releaseStoppedMemberLeases(this.root.team, this.team, this.member);
  }

  /**
   * Resolves while this lease still holds the member's claim, for a step that acts with nothing
   * handed out to fence it (a turn a task started): at once when one of its beats landed less than
   * one beat period ago by this process's monotonic clock (a takeover needs the claim silent for its
   * ttl, three beat periods), else once a beat now lands or fails to reach the store (unreachable is
   * no loss). @throws READER_FENCED when the claim was lost: another reader took it over while this
   * one was paused or starved, presumed dead (the beat found it taken)
   */
  async confirm(): Promise<void> {
    if (!this.lost.signal.aborted && performance.now() - this.landedLocally >= this.beatMs) await this.beat({ fresh: true });
    if (!this.lost.signal.aborted) return;
    throw new MailroomError('READER_FENCED', `The reader claim of "${this.member}" in team "${this.team}" was taken over by another runtime (this one was presumed dead): it acts no more.`, { details: { team: this.team, member: this.member } });
  }

  /**
   * Awaits a store step fenced by this reader's token (TakeOptions.claim); a READER_FENCED refusal
   * (another runtime took the claim over while this one was paused or starved) marks the claim
   * lost, as a beat that finds it taken does — {@link signal} aborts, `onLost` is called, no beat
   * follows — and is rethrown. @throws whatever `step` throws
   */
  async fence<T>(step: Promise<T>): Promise<T> {
    try {
      return await step;
    } catch (err) {
      if (isMailroomError(err, 'READER_FENCED')) this.markLost(err);
      throw err;
    }
  }

  private markLost(err: MailroomError): void {
    if (this.timer) clearInterval(this.timer);
    if (this.lost.signal.aborted) return;
    this.lost.abort(err);
    this.options.onLost?.(err);
  }
}

/**
 * The holder named by a TEAMMATE_RUNNING refusal when it is proved dead on this host; undefined
 * when it may live (or runs elsewhere: then only its ttl can free the claim).
 */
async function provedDead(root: StoreRef, err: unknown): Promise<Pick<ReaderHolder, 'host' | 'pid' | 'startedAt'> | undefined> {
  if (!isMailroomError(err, 'TEAMMATE_RUNNING')) return undefined;
  const holder = err.details.holder as ReaderHolder | undefined;
  const host = root.host;
  if (!holder || holder.host !== host.hostId) return undefined;
  if (holder.pid === process.pid) return holder.startedAt === PROCESS_STARTED_AT ? undefined : holder;
  return (await host.probeProcess(holder.pid)).kind === 'exited' ? holder : undefined;
}
