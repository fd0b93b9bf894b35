/**
 * The live path leases of a team kept current while `watch` runs (docs/leases.md): listed again
 * with {@link listLeases} (which also drops and journals ended ones) when told to, one listing at a
 * time, and the caller hears which leases appeared and which ended since the last listing.
 */
import { listLeases } from '../leases/path-leases.js';
import type { PathLease } from '../../protocol/path-lease.js';
import type { TeamOptions } from '../context.js';
import { followListing } from './follow-listing.js';

/** What changed between two listings. */
export interface LeasesChange {
  /** Every live lease now. */
  live: PathLease[];
  /** Leases live now that were not before. */
  acquired: PathLease[];
  /** Leases live before that are gone now (released, expired, taken over). */
  ended: PathLease[];
}

/** A follower made by {@link followLeases}. */
export interface LeasesFollower {
  /** The live leases as last listed. */
  current(): PathLease[];
  /** Lists again (coalesced: calls while a listing runs cause one more after it). */
  refresh(): Promise<void>;
}

/**
 * Lists the live leases once, then again on each {@link LeasesFollower.refresh}; `onChange` is
 * called after every listing that found a lease acquired or ended. A listing that fails keeps the
 * previous list and reports the error to `onError`.
 */
export async function followLeases(options: TeamOptions, onChange: (change: LeasesChange) => void, onError: (err: unknown) => void = () => undefined): Promise<LeasesFollower> {
  const follower = await followListing(() => listLeases(options), (c) => onChange({ live: c.items, acquired: c.added, ended: c.removed }), onError);
  return { current: follower.current, refresh: follower.refresh };
}
