/**
 * The path leases of a member the dead-member sweep declared dead (src/core/members/dead-members.ts):
 * released in one store transition (journalled `released`, why `holder dead`) so that exactly one
 * sweeper gets them and tells the lead which leases went. A dead holder's leases are held until
 * then (src/domain/path-leases.ts `leaseEnd`): the sweep's guards against a stalled store apply.
 */
import type { PathLease } from '../../protocol/path-lease.js';
import type { TeamStore } from '../../store/team-store.js';

/** Why a swept member's leases were released, as journalled. */
export const DEAD_HOLDER_WHY = 'holder dead (released by the dead-member sweep)';

/**
 * Releases every lease `member` holds; the leases this call released (none when another sweeper
 * was first). Never throws: a lease document that cannot be read or written leaves the leases to
 * their TTL and the sweep's task work undisturbed (the next sweep tries again).
 */
export function releaseDeadMemberLeases(store: TeamStore, team: string, member: string, op: { now?: number | undefined; actor?: string | undefined }): Promise<PathLease[]> {
  return releaseAllLeases(store, team, member, DEAD_HOLDER_WHY, op);
}

/** Why a stopped member's leases were released, as journalled. */
export const STOPPED_HOLDER_WHY = 'holder stopped';

/**
 * Releases every lease of `member` whose runtime stopped cleanly (its reader claim given up:
 * src/core/members/reader-claim.ts). Never throws, as {@link releaseDeadMemberLeases}.
 */
export function releaseStoppedMemberLeases(store: TeamStore, team: string, member: string): Promise<PathLease[]> {
  return releaseAllLeases(store, team, member, STOPPED_HOLDER_WHY, { actor: member });
}

async function releaseAllLeases(store: TeamStore, team: string, member: string, why: string, op: { now?: number | undefined; actor?: string | undefined }): Promise<PathLease[]> {
  try {
    return (await store.releasePathLeases(team, { holder: member, all: true, why }, op)).value;
  } catch {
    return [];
  }
}

/** The sentence of the lead's message about a dead member naming the leases it lost ('' for none). */
export function lostLeasesText(leases: readonly PathLease[]): string {
  if (leases.length === 0) return '';
  const list = leases.map((l) => `${l.id} ${l.shared ? 'shared' : 'exclusive'} on ${l.paths.join(', ')}${l.reason ? ` (${JSON.stringify(l.reason)})` : ''}`).join('; ');
  return ` ${leases.length} path lease(s) were released: ${list}.`;
}
