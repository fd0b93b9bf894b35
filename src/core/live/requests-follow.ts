/**
 * The open requests of a team kept current while `watch` runs: after each store update the lead's
 * requests are listed again with {@link listRequests} (the one definition of "open", shared with
 * `mailroom requests`), one listing at a time, and the caller hears which requests opened and which
 * were answered since the last listing.
 */
import { listRequests, type OpenRequest } from '../messages/approvals.js';
import type { TeamOptions } from '../context.js';
import { followListing } from './follow-listing.js';

/** What changed between two listings. */
export interface RequestsChange {
  /** Every open request now, oldest first. */
  open: OpenRequest[];
  /** Requests open now that were not open before. */
  opened: OpenRequest[];
  /** Requests open before that are answered (or gone) now. */
  closed: OpenRequest[];
}

/** A follower made by {@link followRequests}. */
export interface RequestsFollower {
  /** The open requests as last listed. */
  current(): OpenRequest[];
  /**
   * Lists again (coalesced: calls while a listing runs cause one more listing after it). Resolves
   * once a listing that started after this call has finished.
   */
  refresh(): Promise<void>;
}

/**
 * Lists the open requests once, then again on each {@link RequestsFollower.refresh}; `onChange`
 * is called after every listing that opened or closed a request. A listing that fails (a file
 * caught half-written, the team being removed) keeps the previous list (none at first) and reports
 * the error to `onError`.
 */
export async function followRequests(
  options: TeamOptions,
  onChange: (change: RequestsChange) => void,
  onError: (err: unknown) => void = () => undefined,
): Promise<RequestsFollower & { initial: OpenRequest[] }> {
  // A team being removed or a corrupt inbox: watch reports those itself; no requests until they list.
  return followListing(() => listRequests(options), (c) => onChange({ open: c.items, opened: c.added, closed: c.removed }), onError);
}
