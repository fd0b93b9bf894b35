/**
 * The rules of advisory path leases (docs/leases.md), pure, applied by both store backends inside
 * their one transition: which leases are still live
 * (by the store's clock and the holder's presence), what conflicts, and the acquire / release
 * decisions with the events they cause.
 */
import { MailroomError } from '../errors.js';
import type { PathLease, PathLeaseDoc } from '../protocol/path-lease.js';
import { presenceOf, type PresenceClaim, type PresenceState } from './presence.js';
import { globsOverlap } from './path-globs.js';
import { isoOf } from './shown-value.js';

/** Default TTL of a lease held by a member with no beating runtime (ms): 30 minutes. */
export const DEFAULT_LEASE_TTL_MS = 30 * 60_000;
/**
 * The longest TTL a lease takes (ms): 7 days. A beating holder's lease lives past it anyway; a
 * longer one only outlives its holder — and one past the last instant a Date can hold broke every
 * later conflict and listing.
 */
export const MAX_LEASE_TTL_MS = 7 * 24 * 3_600_000;
/** At most this many paths in one acquisition. */
export const MAX_LEASE_PATHS = 200;

/**
 * At most this many bytes (UTF-8) in one lease path as given: Linux's PATH_MAX, so a longer one
 * names no file — and resolving one costs time growing with the square of its length.
 */
export const MAX_LEASE_PATH_BYTES = 4096;

/** At most this many characters (UTF-16 code units) in a lease's reason, on every surface. */
export const MAX_LEASE_REASON = 500;

// C0 and C1 control characters (newline and tab included) and DEL.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * The one rule for a lease's reason (CLI, MCP, runtime tools): at most {@link MAX_LEASE_REASON}
 * characters and no control characters — a newline would forge a `lease list` line or plant text
 * in another agent's LEASE_HELD. @throws INVALID_ARGUMENT naming the problem and the limit
 */
export function checkLeaseReason(reason: string | undefined): void {
  if (reason === undefined) return;
  if (reason.length > MAX_LEASE_REASON) throw new MailroomError('INVALID_ARGUMENT', `A lease's reason is at most ${MAX_LEASE_REASON} characters (got ${reason.length}): shorten --reason.`);
  if (CONTROL.test(reason)) throw new MailroomError('INVALID_ARGUMENT', `A lease's reason is one line of at most ${MAX_LEASE_REASON} characters with no control characters (newline, tab, escape …): write it on one line.`);
}

/**
 * The one rule for a lease path's text as given (CLI, MCP, runtime tools), before it is resolved:
 * not empty, at most {@link MAX_LEASE_PATH_BYTES} bytes, no control characters — a newline would
 * forge a `lease list` line or plant text in another agent's LEASE_HELD, as a reason's would.
 * @throws INVALID_ARGUMENT naming the problem and the fix
 */
export function checkLeasePath(path: string): void {
  const shown = JSON.stringify(path.length > 40 ? `${path.slice(0, 40)}…` : path);
  if (path.trim() === '') throw new MailroomError('INVALID_ARGUMENT', `Lease path ${shown} is empty: name a file, a directory or a glob (src/**).`);
  const bytes = Buffer.byteLength(path);
  if (bytes > MAX_LEASE_PATH_BYTES) throw new MailroomError('INVALID_ARGUMENT', `Lease path ${shown} is ${bytes} bytes; a lease path is at most ${MAX_LEASE_PATH_BYTES} bytes (PATH_MAX: a longer one names no file): lease a directory or a glob instead.`, { details: { bytes, limit: MAX_LEASE_PATH_BYTES } });
  if (CONTROL.test(path)) throw new MailroomError('INVALID_ARGUMENT', `Lease path ${shown} holds a control character (newline, tab, escape, NUL …): lease the directory that holds such a file, or a glob (dir/*).`);
}

/** A reason as printed (lease list, LEASE_HELD): control characters, e.g. of a lease stored before {@link checkLeaseReason}, shown as spaces. */
export function reasonText(reason: string): string {
  return reason.replace(new RegExp(CONTROL.source, 'g'), ' ');
}

/** What liveness needs to know of a holder. */
export interface HolderState {
  /** Still in the team's roster. */
  inRoster: boolean;
  /** Its presence, when a mailroom runtime runs or ran it (undefined: a member with no runtime, e.g. a CLI user). */
  presence?: PresenceState | undefined;
  /** Epoch ms of its runtime's last beat, when it has a claim. */
  lastBeatAt?: number | undefined;
}

/**
 * Why a lease is no longer live, or undefined while it is. A beating holder's lease is renewed by
 * each beat. A dead holder's lease is held until the dead-member sweep releases it (and tells the
 * lead: src/core/members/dead-members.ts, which also guards against judging from a stalled store),
 * or until its TTL counted from the holder's last beat — whichever comes first.
 */
export function leaseEnd(lease: PathLease, holder: HolderState, now: number): 'left' | 'dead' | 'stopped' | 'expired' | undefined {
  if (!holder.inRoster) return 'left';
  if (holder.presence === 'dead') return now >= Math.max(lease.expiresAt, (holder.lastBeatAt ?? 0) + lease.ttlMs) ? 'dead' : undefined;
  if (holder.presence === 'working' || holder.presence === 'idle') return undefined; // renewed by its beat
  if (now >= lease.expiresAt) return holder.presence === 'stopped' ? 'stopped' : 'expired';
  return undefined;
}

/** A repository root without trailing separators (`/` stays `/`). */
const rootOf = (repo: string): string => (repo.length > 1 ? repo.replace(/[\\/]+$/, '') || repo.slice(0, 1) : repo);

/**
 * Where `inner` lies under `outer`, as a `/`-separated relative path, or undefined when it is not
 * strictly inside it (`/repository` is not inside `/repo`). Both are repository roots as stored:
 * absolute, symbolic links resolved.
 */
function nestedAt(inner: string, outer: string): string | undefined {
  const [i, o] = [rootOf(inner), rootOf(outer)];
  if (i === o || !i.startsWith(o)) return undefined;
  const rest = /[\\/]$/.test(o) ? i.slice(o.length) : /^[\\/]/.test(i.slice(o.length)) ? i.slice(o.length + 1) : undefined;
  return rest ? rest.split(/[\\/]/).join('/') : undefined;
}

/** `paths` of a lease of repository `sub` (nested at `at` in another) as paths of that other. */
const rebase = (paths: readonly string[], at: string): string[] => paths.map((p) => (p === '.' ? at : `${at}/${p}`));

/**
 * The two leases' paths as paths of one repository, or undefined when neither repository contains
 * the other (different clones never conflict). A repository nested in another — the same files
 * named from an enclosing `--repo` — is compared by the files it covers.
 */
function sameRepoPaths(a: Pick<PathLease, 'repo' | 'paths'>, b: Pick<PathLease, 'repo' | 'paths'>): [readonly string[], readonly string[]] | undefined {
  if (rootOf(a.repo) === rootOf(b.repo)) return [a.paths, b.paths];
  const aIn = nestedAt(a.repo, b.repo);
  if (aIn !== undefined) return [rebase(a.paths, aIn), b.paths];
  const bIn = nestedAt(b.repo, a.repo);
  return bIn !== undefined ? [a.paths, rebase(b.paths, bIn)] : undefined;
}

/** True when two leases of different holders cannot both be held: some path of one overlaps one of the other, in one repository or in nested ones. */
export function leasesConflict(a: Pick<PathLease, 'holder' | 'repo' | 'paths' | 'shared'>, b: Pick<PathLease, 'holder' | 'repo' | 'paths' | 'shared'>): boolean {
  if (a.holder === b.holder || (a.shared && b.shared)) return false;
  const paths = sameRepoPaths(a, b);
  return paths !== undefined && paths[0].some((p) => paths[1].some((q) => globsOverlap(p, q)));
}

/** A lease change to journal: acquired, released, expired (with why), or forced (taken over by the lead). */
export interface LeaseChange {
  action: 'acquired' | 'released' | 'expired' | 'forced';
  lease: PathLease;
  why?: string | undefined;
}

/** An acquisition. */
export interface AcquireRequest {
  holder: string;
  repo: string;
  paths: readonly string[];
  shared: boolean;
  ttlMs: number;
  reason?: string | undefined;
  /** The lead takes over conflicting leases (each journalled `forced`). */
  force?: boolean | undefined;
}

/** The outcome of a decision: the new document and what changed. */
export interface LeasePlan<T> {
  doc: PathLeaseDoc;
  value: T;
  changes: LeaseChange[];
}

/** Drops leases that are no longer live; each dropped one becomes an `expired` change. */
export function pruneLeases(doc: PathLeaseDoc, holders: (name: string) => HolderState, now: number): LeasePlan<PathLease[]> {
  const kept: PathLease[] = [];
  const changes: LeaseChange[] = [];
  for (const l of doc.leases) {
    const end = leaseEnd(l, holders(l.holder), now);
    if (end) changes.push({ action: 'expired', lease: l, why: end });
    else kept.push(l);
  }
  return { doc: { ...doc, leases: kept }, value: kept, changes };
}

/**
 * All or nothing: the request's paths are leased as one new lease, or LEASE_HELD names every
 * conflicting lease (holder, paths, reason, expiry) and nothing changes.
 * @throws LEASE_HELD, INVALID_ARGUMENT (no paths, too many)
 */
export function planAcquire(doc: PathLeaseDoc, req: AcquireRequest, holders: (name: string) => HolderState, now: number): LeasePlan<PathLease> {
  if (req.paths.length === 0) throw new MailroomError('INVALID_ARGUMENT', 'Name at least one path or glob to lease.');
  if (req.paths.length > MAX_LEASE_PATHS) throw new MailroomError('INVALID_ARGUMENT', `At most ${MAX_LEASE_PATHS} paths in one lease (got ${req.paths.length}): lease a directory or a glob instead.`);
  const pruned = pruneLeases(doc, holders, now);
  const candidate = { holder: req.holder, repo: req.repo, paths: [...new Set(req.paths)], shared: req.shared };
  const conflicts = pruned.value.filter((l) => leasesConflict(l, candidate));
  const changes = [...pruned.changes];
  let leases = pruned.value;
  if (conflicts.length > 0) {
    if (!req.force) throw leaseHeld(conflicts, now);
    leases = leases.filter((l) => !conflicts.includes(l));
    for (const l of conflicts) changes.push({ action: 'forced', lease: l, why: `taken over by ${req.holder}` });
  }
  const token = doc.nextToken;
  const lease: PathLease = { id: `pl-${token}`, holder: req.holder, repo: req.repo, paths: candidate.paths, shared: req.shared, ...(req.reason ? { reason: req.reason } : {}), token, acquiredAt: now, expiresAt: now + req.ttlMs, ttlMs: req.ttlMs };
  changes.push({ action: 'acquired', lease });
  return { doc: { leases: [...leases, lease], nextToken: token + 1 }, value: lease, changes };
}

/** LEASE_HELD naming each conflicting lease. */
export function leaseHeld(conflicts: readonly PathLease[], now: number): MailroomError {
  const lines = conflicts.map((l) => `${l.holder} holds ${l.shared ? 'a shared' : 'an exclusive'} lease ${l.id} on ${l.paths.join(', ')}${l.reason ? ` (${reasonText(l.reason)})` : ''}, until ${isoOf(l.expiresAt)}${l.expiresAt > now ? '' : ' or while its runtime beats'}`);
  return new MailroomError('LEASE_HELD', `${lines.join('; ')}. Ask the holder (\`mailroom team send ${conflicts[0]!.holder} …\`), wait for the release, or as the lead take it over with --force.`, {
    details: { holders: conflicts.map((l) => ({ id: l.id, holder: l.holder, paths: l.paths, reason: l.reason, expiresAt: l.expiresAt })) },
  });
}

/** Which leases a release names. */
export interface ReleaseRequest {
  holder: string;
  /** Lease ids; omit with `all`. */
  ids?: readonly string[] | undefined;
  all?: boolean | undefined;
  /** Why, journalled (`released by …`, `member left`). */
  why?: string | undefined;
}

/** Releases the holder's named leases (or all of them). @throws LEASE_NOT_FOUND naming an id the holder does not hold */
export function planRelease(doc: PathLeaseDoc, req: ReleaseRequest, holders: (name: string) => HolderState, now: number): LeasePlan<PathLease[]> {
  const pruned = pruneLeases(doc, holders, now);
  const mine = pruned.value.filter((l) => l.holder === req.holder);
  const chosen = req.all ? mine : mine.filter((l) => req.ids?.includes(l.id));
  for (const id of req.all ? [] : req.ids ?? []) {
    if (!chosen.some((l) => l.id === id)) throw new MailroomError('LEASE_NOT_FOUND', `${req.holder} holds no lease ${id}: \`mailroom lease list\` shows the live ones (an expired lease is gone already).`, { details: { id } });
  }
  return {
    doc: { ...pruned.doc, leases: pruned.value.filter((l) => !chosen.includes(l)) },
    value: chosen,
    changes: [...pruned.changes, ...chosen.map((lease) => ({ action: 'released' as const, lease, ...(req.why ? { why: req.why } : {}) }))],
  };
}

/** How each holder stands, from the roster and the team's reader claims (presence), at `now`. */
export function holderStates(roster: readonly { name: string }[], claims: readonly PresenceClaim[], now: number): (name: string) => HolderState {
  const names = new Set(roster.map((m) => m.name));
  return (name) => {
    const claim = claims.find((c) => c.member === name);
    return { inRoster: names.has(name), ...(claim ? { presence: presenceOf(name, claims, now).state, lastBeatAt: claim.lastBeatAt } : {}) };
  };
}
