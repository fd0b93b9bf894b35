/**
 * Advisory path leases as use cases (docs/leases.md): acquire, release, list, and the two guards
 * — a git pre-commit check and Claude Code's PreToolUse hook — that refuse an edit of paths another
 * live member holds exclusively. Paths are normalised against a repository root (the member's cwd
 * by default); the store decides conflicts, liveness and fencing tokens in one transition.
 */
import { isAbsolute, posix, resolve } from 'node:path';
import { MailroomError } from '../../errors.js';
import { DEFAULT_LEASE_TTL_MS, MAX_LEASE_PATH_BYTES, MAX_LEASE_TTL_MS, checkLeasePath, checkLeaseReason, leaseHeld } from '../../domain/path-leases.js';
import { globCovers } from '../../domain/path-globs.js';
import { leadName, requireMember } from '../../domain/roster.js';
import type { PathLease } from '../../protocol/path-lease.js';
import type { TeamConfig } from '../../protocol/config.js';
import { opOf, teamOf, type TeamOptions } from '../context.js';
import { insideRepo, realPath, realPattern } from './real-paths.js';

/**
 * A path or glob given by a user — absolute, or relative to `cwd` when that is inside the
 * repository, else to the repository's root — as a repository-relative POSIX
 * pattern. @throws INVALID_ARGUMENT for an empty pattern, one over {@link MAX_LEASE_PATH_BYTES} or with a control character (`checkLeasePath`), or one outside the repository
 */
export function normalizeLeasePath(input: string, repo: string, cwd: string): string {
  const trimmed = input.trim();
  checkLeasePath(trimmed);
  // Symbolic links resolved first (real-paths.ts), then relative to the current directory when it
  // is inside the repository, else to the repository's root.
  const root = realPath(repo);
  const here = realPath(cwd);
  const inside = insideRepo(root, here) !== undefined;
  const abs = realPattern(isAbsolute(trimmed) ? trimmed : resolve(inside ? here : root, trimmed));
  const rel = insideRepo(root, abs);
  if (rel === undefined) throw new MailroomError('INVALID_ARGUMENT', `Lease path ${JSON.stringify(input)} is outside the repository ${repo}: give a path inside it, or declare another root with --repo.`);
  const norm = posix.normalize(rel === '' ? '.' : rel).replace(/\/+$/, '');
  return norm === '' ? '.' : norm;
}

/** The repository root leases of `member` are relative to: `repo`, else the member's cwd, else `cwd` — symbolic links resolved. */
export function repoOf(config: TeamConfig, member: string, repo: string | undefined, cwd: string): string {
  return realPath(repo ?? config.members.find((m) => m.name === member)?.cwd ?? cwd, cwd);
}

/** Input of {@link acquireLease}. */
export interface AcquireLeaseOptions extends TeamOptions {
  /** The holder (default: the lead). */
  as?: string | undefined;
  /** Files, directories or globs, relative to `cwd` or absolute. */
  paths: readonly string[];
  /** ms; default {@link DEFAULT_LEASE_TTL_MS}. */
  ttlMs?: number | undefined;
  shared?: boolean | undefined;
  reason?: string | undefined;
  /** The lead takes over conflicting leases (journalled `forced`). @throws NOT_PERMITTED for anyone else */
  force?: boolean | undefined;
  /** Repository root (default: the member's cwd, else `cwd`). */
  repo?: string | undefined;
  /** Where relative paths start (default `process.cwd()`). */
  cwd?: string | undefined;
}

/** Leases paths, all or nothing. @throws LEASE_HELD naming the holders, MEMBER_NOT_FOUND, INVALID_ARGUMENT (also a reason over 500 characters or with control characters, a TTL over {@link MAX_LEASE_TTL_MS}), NOT_PERMITTED (`--force` by a non-lead) */
export async function acquireLease(o: AcquireLeaseOptions): Promise<PathLease> {
  const store = teamOf(o);
  const config = await store.readConfig(o.team);
  const holder = o.as ?? leadName(config);
  requireMember(config, holder, 'member');
  if (o.force && holder !== leadName(config)) throw new MailroomError('NOT_PERMITTED', `Only the lead (${leadName(config)}) takes over a lease with --force; ask the holder to release it.`, { details: { rule: 'lead-only' } });
  const cwd = o.cwd ?? process.cwd();
  const repo = repoOf(config, holder, o.repo, cwd);
  const ttlMs = o.ttlMs ?? DEFAULT_LEASE_TTL_MS;
  if (!Number.isInteger(ttlMs) || ttlMs <= 0) throw new MailroomError('INVALID_ARGUMENT', `A lease's TTL must be a positive duration (got ${String(o.ttlMs)}): e.g. --ttl 30m.`);
  if (ttlMs > MAX_LEASE_TTL_MS) throw new MailroomError('INVALID_ARGUMENT', `A lease's TTL is at most 7 days (${MAX_LEASE_TTL_MS} ms; got ${ttlMs} ms): give a shorter --ttl and acquire again when it ends (a lease lives as long as its holder's runtime beats anyway).`, { details: { ttlMs, limit: MAX_LEASE_TTL_MS } });
  checkLeaseReason(o.reason);
  const paths = o.paths.map((p) => normalizeLeasePath(p, repo, cwd));
  const done = await store.acquirePathLease(o.team, { holder, repo, paths, shared: o.shared === true, ttlMs, reason: o.reason, force: o.force }, opOf(o, holder));
  return done.value;
}

/** Input of {@link releaseLeases}. */
export interface ReleaseLeaseOptions extends TeamOptions {
  as?: string | undefined;
  /** Lease ids (`pl-N`), or the path patterns the member leased (as given to acquire; see {@link leaseIdsFor}). */
  ids?: readonly string[] | undefined;
  all?: boolean | undefined;
  /** Where relative patterns start (default `process.cwd()`). */
  cwd?: string | undefined;
}

const LEASE_ID = /^pl-\d+$/;

/**
 * The lease ids `refs` name among `holder`'s live leases: a `pl-N` id as is; anything else is a
 * path pattern, matched against each lease's paths as written and as normalised the way acquire
 * normalises them (relative to `cwd` inside the lease's repository).
 * @throws LEASE_NOT_FOUND (no lease of the holder names the pattern: the message says to give the id, from `lease list`), INVALID_ARGUMENT (several leases name it: the message lists their ids)
 */
export function leaseIdsFor(refs: readonly string[], holder: string, leases: readonly PathLease[], cwd: string): string[] {
  const mine = leases.filter((l) => l.holder === holder);
  return refs.map((ref) => {
    if (LEASE_ID.test(ref)) return ref;
    const hits = mine.filter((l) => l.paths.includes(ref.trim()) || l.paths.includes(normalizedIn(ref, l.repo, cwd) ?? '\0'));
    if (hits.length === 1) return hits[0]!.id;
    if (hits.length === 0) {
      const held = mine.length === 0 ? `${holder} holds no live lease` : `${holder}'s leases: ${mine.map((l) => `${l.id} (${l.paths.join(' ')})`).join(', ')}`;
      throw new MailroomError('LEASE_NOT_FOUND', `${holder} holds no lease on ${JSON.stringify(ref)} (${held}). Give the lease id (pl-N): \`mailroom lease list\` shows every live lease with its id.`, { details: { path: ref, holder } });
    }
    throw new MailroomError('INVALID_ARGUMENT', `${holder} holds ${hits.length} leases on ${JSON.stringify(ref)}: ${hits.map((l) => `${l.id} (${l.repo})`).join(', ')}. Give the one to release by its id, e.g. \`mailroom lease release ${hits[0]!.id}\`.`, { details: { path: ref, ids: hits.map((l) => l.id) } });
  });
}

function normalizedIn(ref: string, repo: string, cwd: string): string | undefined {
  try {
    return normalizeLeasePath(ref, repo, cwd);
  } catch {
    return undefined; // outside that lease's repository (or not a path at all): it does not name it
  }
}

/** Releases the member's named leases (ids or path patterns, {@link leaseIdsFor}), or all. @throws MEMBER_NOT_FOUND (no such member), LEASE_NOT_FOUND, INVALID_ARGUMENT (neither ids nor all; a pattern several leases name) */
export async function releaseLeases(o: ReleaseLeaseOptions): Promise<PathLease[]> {
  if (!o.all && (o.ids ?? []).length === 0) throw new MailroomError('USAGE', 'Name the lease to release (its id, from `mailroom lease list`) or give --all.');
  const store = teamOf(o);
  const config = await store.readConfig(o.team);
  const holder = o.as ?? leadName(config);
  requireMember(config, holder, 'member');
  const refs = o.ids ?? [];
  const ids = refs.every((r) => LEASE_ID.test(r)) ? o.ids : leaseIdsFor(refs, holder, await listLeases(o), o.cwd ?? process.cwd());
  return (await store.releasePathLeases(o.team, { holder, ids, all: o.all, why: `released by ${holder}` }, opOf(o, holder))).value;
}

/** The live leases (ended ones are dropped and journalled in the same step). */
export async function listLeases(o: TeamOptions): Promise<PathLease[]> {
  return (await teamOf(o).listPathLeases(o.team, opOf(o))).value;
}

/** One file another member holds. */
export interface HeldFile {
  file: string;
  lease: PathLease;
}

/**
 * Which of `files` (relative to `cwd` or absolute) another live member holds exclusively (or,
 * for `forWrite` of a shared holder, any lease of another member that is exclusive). A member's own
 * leases and shared leases never block. Files outside every lease's repository are free. Symbolic
 * links in the file and in each lease's repository are resolved first (real-paths.ts); the file as
 * written is checked too, for a lease taken on a path before a link on it existed.
 */
export async function heldByOthers(o: TeamOptions & { as?: string | undefined; files: readonly string[]; cwd?: string | undefined }): Promise<HeldFile[]> {
  if (o.as !== undefined) requireMember(await teamOf(o).readConfig(o.team), o.as, 'member');
  const leases = await listLeases(o);
  const cwd = o.cwd ?? process.cwd();
  const out: HeldFile[] = [];
  for (const file of o.files) {
    // The file as resolved, and as written: a lease taken on a path before a link on it existed
    // (gen/x.ts, then gen -> src) names the path as written.
    const spellings = [...new Set([realPath(file, cwd), resolve(cwd, file)])];
    for (const lease of leases) {
      if (lease.holder === o.as || lease.shared) continue;
      const root = realPath(lease.repo);
      const rels = spellings.map((abs) => insideRepo(root, abs)).filter((r) => r !== undefined);
      if (lease.paths.some((p) => rels.some((rel) => globCovers(p, rel)))) {
        out.push({ file, lease });
        break;
      }
    }
  }
  return out;
}

/** The refusal a guard gives for held files: LEASE_HELD naming each holder, its paths, reason and expiry. */
export function heldError(held: readonly HeldFile[]): MailroomError {
  const unique = [...new Map(held.map((h) => [h.lease.id, h.lease])).values()];
  const err = leaseHeld(unique, Date.now());
  return new MailroomError('LEASE_HELD', `${held.map((h) => h.file).join(', ')}: ${err.message}`, { details: err.details });
}
