/**
 * A long-lived sender's kept view of its team (issue 24: one round trip per send on Redis): the
 * config, settings and view stamp it sends under, read once and kept. A send made with it
 * (`KnownConfig.senderView`) reads nothing first: its append carries the kept stamp and is
 * checked in the append's own step (AppendOptions.expectViewStamp), so a kept view that went stale
 * never lets a message land under it — the send is refused there (VIEW_MOVED), reads the view
 * again, retries, and leaves the new view here for the next send. Runtime teammates, `mailroom
 * agent`, `mailroom mcp` and the lead of `mailroom run` keep one; one-shot CLI sends read first.
 */
import { teamOf, type TeamOptions } from '../context.js';
import { stampedView, type StampedView } from './known-config.js';

/** One sender's kept view of one team (see the module comment). */
export class SenderView {
  private kept: Promise<StampedView> | undefined;

  /** @param options the team whose view is kept */
  constructor(private readonly options: TeamOptions) {}

  /**
   * The kept view, read now (with its stamp) when there is none. On a store whose takes carry no
   * stamps (files) nothing is kept: its reads are local files in the page cache (a stamp there
   * costs a read and parse of config.json itself: store/fs/view-stamp.ts), so keeping saves little.
   * @throws what {@link stampedView} throws
   */
  view(): Promise<StampedView> {
    if (teamOf(this.options).keepsViews !== true) return stampedView(this.options);
    const kept = (this.kept ??= stampedView(this.options));
    kept.catch(() => {
      if (this.kept === kept) this.kept = undefined; // a failed read is not kept
    });
    return kept;
  }

  /** Keeps `view`, read after this one (a send that found the kept one moved, or a reader's newer reads); on a store that keeps none (files, see {@link view}), nothing. */
  offer(view: StampedView): void {
    if (teamOf(this.options).keepsViews !== true) return;
    this.kept = Promise.resolve(view);
  }

  /** Forgets the kept view: the next send reads it again. */
  forget(): void {
    this.kept = undefined;
  }

  /**
   * Follows the team's hints (a feed the owner already has): a `config` hint — the roster, a
   * member's document (every turn's `isActive`), the settings — reads the view again in the
   * background (one read in flight, one more after it when hints came meanwhile), so the next send
   * finds it current instead of being refused once (VIEW_MOVED) and reading then. Never what makes
   * a send correct: the append's own check is.
   */
  onHint(hint: { kind: string }): void {
    if (hint.kind !== 'config' || this.kept === undefined) return;
    if (this.refreshing) {
      this.again = true;
      return;
    }
    this.refreshing = true;
    this.kept = undefined;
    void this.view()
      .catch(() => undefined) // read again at the next send
      .then(() => {
        this.refreshing = false;
        if (!this.again) return;
        this.again = false;
        this.onHint(hint);
      });
  }
  private refreshing = false;
  private again = false;
}
