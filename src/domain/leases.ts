/**
 * Handing out an inbox exactly once (issue 9 item 1): which unread entries a take gets, given the
 * leases already held. A lease names the entries it handed out (by {@link entryKey}) and lives
 * until it is acknowledged (entries marked read), released (entries unread again at once) or
 * expires (`until`, epoch ms: its reader is presumed dead). Pure: a store backend keeps the leases
 * and applies this inside one atomic step with the take.
 */
import type { InboxEntry } from '../protocol/inbox.js';
import { MailroomError } from '../errors.js';
import { entryKey, isUnreadEntry } from './entries.js';

/** Default time a lease holds its entries without an acknowledgement (ms). */
export const DEFAULT_LEASE_MS = 120_000;

/**
 * Checks a take's options before a backend acts on them (a JavaScript caller is not held to the
 * types): `reader` a non-empty string, `limit` a whole number ≥ 1, `leaseMs` a finite number > 0.
 * @throws MailroomError INVALID_ARGUMENT naming the option, before anything is handed out or written
 */
export function checkTakeOptions(o: { reader: unknown; limit?: unknown; leaseMs?: unknown }): void {
  const shown = (got: unknown): string => (typeof got === 'string' ? JSON.stringify(got) : got === null || (typeof got !== 'object' && typeof got !== 'function') ? String(got) : Array.isArray(got) ? 'an array' : `a ${typeof got}`);
  const bad = (what: string, got: unknown) => new MailroomError('INVALID_ARGUMENT', `takeUnread: ${what}; got ${shown(got)}.`, { details: { got: typeof got } });
  if (typeof o.reader !== 'string' || o.reader === '') throw bad('reader must be a non-empty string (a reader claim token, or any id of the reader)', o.reader);
  if (o.limit !== undefined && (typeof o.limit !== 'number' || !Number.isInteger(o.limit) || o.limit < 1)) throw bad('limit must be a whole number ≥ 1 (or left out: all)', o.limit);
  if (o.leaseMs !== undefined && (typeof o.leaseMs !== 'number' || !Number.isFinite(o.leaseMs) || o.leaseMs <= 0)) throw bad('leaseMs must be a number of ms > 0', o.leaseMs);
}

/** One lease as a backend keeps it. */
export interface LeaseRecord {
  id: string;
  /** Who took it (a reader claim token, or any id of the reader). */
  reader: string;
  /** Epoch ms after which its entries count as unread again. */
  until: number;
  /** Identities ({@link entryKey}) of the entries it handed out. */
  keys: string[];
}

/** Leases still in force at `now`. */
export function liveLeases(leases: readonly LeaseRecord[], now: number): LeaseRecord[] {
  return leases.filter((l) => l.until > now);
}

/** What a take hands out: unread entries no live lease holds, in inbox order, at most `limit`. */
export interface TakeSelection {
  taken: InboxEntry[];
  /** Unread entries a next take could get: held by no live lease and not handed out by this one (over the limit). */
  remaining: number;
}

/** Selects a take (see {@link TakeSelection}); `entries` are the inbox's valid entries in file order. */
export function selectTake(entries: readonly InboxEntry[], leases: readonly LeaseRecord[], now: number, limit = Number.POSITIVE_INFINITY): TakeSelection {
  const held = new Set(liveLeases(leases, now).flatMap((l) => l.keys));
  const unread = entries.filter(isUnreadEntry);
  const free = unread.filter((e) => !held.has(entryKey(e)));
  const taken = free.slice(0, Math.max(0, limit));
  return { taken, remaining: free.length - taken.length };
}

/**
 * The keys an acknowledgement of `lease` marks read: its keys (or those of `only`) that no other
 * live lease holds now. A late acknowledgement of an expired lease still counts, unless another
 * reader took the entries meanwhile.
 */
export function acknowledgedKeys(lease: LeaseRecord, leases: readonly LeaseRecord[], now: number, only?: readonly string[]): string[] {
  const others = new Set(liveLeases(leases, now).filter((l) => l.id !== lease.id).flatMap((l) => l.keys));
  const wanted = only ? lease.keys.filter((k) => only.includes(k)) : lease.keys;
  return wanted.filter((k) => !others.has(k));
}
