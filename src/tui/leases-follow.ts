/**
 * The live path leases for the `watch` screen (docs/leases.md): listed once, then again on every
 * hint of the team's feed other than an inbox change (a lease write hints the team; the feed's
 * safety-net tick, every 2 s, also catches a lease that expired by time alone), one listing at a
 * time. `onChange` runs only when the list changed. A failed listing keeps the last one.
 */
import { listLeases } from '../core/leases/path-leases.js';
import type { TeamFeed } from '../core/live/feed.js';
import type { PathLease } from '../protocol/path-lease.js';
import type { Stores } from '../store/selection.js';

/** The followed leases: the latest listing, and a function that stops following. */
export interface FollowedLeases {
  current(): readonly PathLease[];
  close(): void;
}

/** Follows the leases of `team` on `feed` (see the module comment). */
export async function followLeases(target: { root: Stores; team: string }, feed: TeamFeed, onChange: () => void): Promise<FollowedLeases> {
  let leases: readonly PathLease[] = [];
  let listing: Promise<void> | undefined;
  let again = false;
  const list = async (): Promise<void> => {
    const next = await listLeases(target).catch(() => undefined);
    if (next === undefined || JSON.stringify(next) === JSON.stringify(leases)) return;
    leases = next;
    onChange();
  };
  const refresh = (): void => {
    if (listing) {
      again = true;
      return;
    }
    listing = list().finally(() => {
      listing = undefined;
      if (again) {
        again = false;
        refresh();
      }
    });
  };
  await list();
  const off = feed.subscribe((hint) => {
    if (hint.kind !== 'inbox') refresh();
  });
  return { current: () => leases, close: off };
}
