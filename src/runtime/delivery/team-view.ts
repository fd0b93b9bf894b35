/**
 * What a teammate reads of its team around every delivery — the config, settings and member
 * records its guard judges by (core/trust/trust.ts) and its system prompt shows, and the task
 * board of that prompt — kept between deliveries instead of read again before each model call
 * (issue 24: send → an idle agent's next model request). Only on a store whose takes carry a view
 * stamp ({@link TeamStore.takesCarryViewStamps}: Redis, files); on any other every step reads as before.
 *
 * **No stale guard.** The kept reads carry the view stamp taken before them (one pipelined round
 * trip: the stamp first, then the reads, in one step order on the server). A take's reply carries
 * the stamp of its own step ({@link Lease.viewStamp}); the kept reads serve those entries only
 * when the two are the same view ({@link TeamStore.sameView}: equal on Redis; on files equal but
 * for config.json's stat, moved by an `isActive` write, with the same config digest) — nothing of
 * config, settings or records changed between the reads and the take — else they are read again
 * then (newer than the take). On files the reads' stamp is taken synchronously before the reads
 * are issued, so it is never newer than what they saw. So a change committed before a
 * message was sent (a member removed, signing turned on, a key rotated, a member re-keyed) is
 * honoured for that very message whatever order the change's hint and the take's reply arrive in.
 * The store's change hints (`config`) only make the view read again early, in the background, so
 * the next delivery finds it current; they are never what makes it correct.
 *
 * **The board** of the prompt has no stamp: it is kept until a `task` hint arrives, or until this
 * teammate ran tools (they may have changed it), and read again then. The prompt is what the model
 * is shown, not a rule: the board may lag a change by the hint's way from the server (the rules —
 * claims, fencing — are checked by the store at each call).
 */
import type { TeamConfig } from '../../protocol/config.js';
import type { MemberRecord } from '../../protocol/member-record.js';
import type { TeamSettings } from '../../protocol/settings.js';
import type { Task } from '../../protocol/task.js';
import type { FeedHint } from '../../core/live/feed.js';
import type { TeamStore } from '../../store/team-store.js';

/** The guard's reads of a team under one view stamp. */
export interface ViewReads {
  /** The store's view stamp taken before these reads. */
  stamp: string;
  config: TeamConfig;
  settings: TeamSettings;
  records: MemberRecord[];
}

/** The `signing` settings of `reads`, as one comparable string. */
function signingOf(reads: ViewReads): string {
  return JSON.stringify(reads.settings.signing ?? null);
}

/** One teammate's kept reads of its team. */
export class TeamView {
  /** The latest reads started (settled or in flight). */
  private reads: Promise<ViewReads> | undefined;
  /** A `config` hint came while {@link reads} was in flight: read again once it settles. */
  private again = false;
  private board: Promise<Task[]> | undefined;
  private closed = false;

  constructor(
    private readonly store: TeamStore,
    private readonly team: string,
  ) {}

  /**
   * Whether the store's takes carry view stamps ({@link TeamStore.takesCarryViewStamps}: Redis and
   * files): without them this view keeps nothing.
   */
  static supports(store: TeamStore): boolean {
    return typeof store.viewStamp === 'function' && store.takesCarryViewStamps === true;
  }

  /**
   * The reads for entries taken under `stamp` ({@link Lease.viewStamp}): the kept ones when they
   * were read under that very stamp, else read now (after the take, so at least as new).
   * Undefined when `stamp` is (the store keeps none): the caller reads as it always did.
   * @throws what the store's reads throw (TEAM_NOT_FOUND, STORE_UNAVAILABLE)
   */
  async at(stamp: string | undefined): Promise<ViewReads | undefined> {
    if (stamp === undefined || !TeamView.supports(this.store)) return undefined;
    const kept = this.reads ? await this.reads.catch(() => undefined) : undefined;
    if (kept !== undefined && (kept.stamp === stamp || this.store.sameView?.(kept.stamp, stamp) === true)) return kept;
    this.reads = this.read();
    return this.reads;
  }

  /**
   * Whether the guard found the team open on this machine with the same `signing` settings as in
   * `reads`: then it need not judge again, nor read this machine's lead pin. A team turns signed for
   * this machine only through its settings' `signing` (named there: pinned on first use; `team
   * sign`, which writes this machine's pin and then the settings), so while that stays as it was
   * (compared whole, in the reads of the take's stamp) an open team stays open. Other changes — the
   * `isActive` writes of every turn — leave it so.
   */
  openUnder(reads: ViewReads): boolean {
    return this.open !== undefined && this.open === signingOf(reads);
  }

  /** Records that the guard found the team open with the settings of `reads` (see {@link openUnder}). */
  foundOpen(reads: ViewReads): void {
    this.open = signingOf(reads);
  }
  private open: string | undefined;

  /** The task board: the one kept since the last `task` hint or {@link boardMayHaveChanged}, else read now. */
  tasks(): Promise<Task[]> {
    const board = (this.board ??= this.store.listTasks(this.team));
    board.catch(() => {
      if (this.board === board) this.board = undefined; // a failed read is not kept
    });
    return board;
  }

  /** Forget the board (this teammate ran tools that may have changed it). */
  boardMayHaveChanged(): void {
    this.board = undefined;
  }

  /**
   * Follows the team's hints: `config` reads the guard's view again in the background (coalesced:
   * one read in flight, one more after it when hints came meanwhile); `task` forgets the board.
   */
  onHint(hint: FeedHint): void {
    if (this.closed || !TeamView.supports(this.store)) return;
    if (hint.kind === 'task') this.board = undefined;
    if (hint.kind === 'config') this.refresh();
  }

  /** Stops reading in the background. */
  close(): void {
    this.closed = true;
  }

  private refresh(): void {
    if (this.inFlight) {
      this.again = true;
      return;
    }
    const reads = this.read();
    this.reads = reads;
    this.inFlight = true;
    void reads
      .catch(() => undefined) // a failed background read is read again at the next delivery
      .then(() => {
        this.inFlight = false;
        if (this.again && !this.closed) {
          this.again = false;
          this.refresh();
        }
      });
  }
  private inFlight = false;

  /**
   * The stamp, then config, settings and records: issued in one tick, so one round trip, and run
   * by the server in that order — the stamp is never newer than what the reads saw.
   */
  private async read(): Promise<ViewReads> {
    const stamp = this.store.viewStamp!(this.team);
    const config = this.store.readConfig(this.team);
    const settings = this.store.readSettings(this.team);
    const records = this.store.readMemberRecords(this.team);
    const [s, c, t, r] = await Promise.all([stamp, config, settings, records]);
    return { stamp: s, config: c, settings: t, records: r };
  }
}
