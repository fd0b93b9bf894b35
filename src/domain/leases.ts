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
import { shownValue } from './shown-value.js';

/** Default time a lease holds its entries without an acknowledgement (ms). */
export const DEFAULT_LEASE_MS = 120_000;

/** Longest lease a take may ask for (ms): 2³¹ − 1, about 24.8 days (a longer one could overflow a backend's integer ms). */
export const MAX_LEASE_MS = 2 ** 31 - 1;

/**
 * Checks a take's options before a backend acts on them (a JavaScript caller is not held to the
 * types): `reader` a non-empty string, `limit` a whole number ≥ 1, `leaseMs` a number of ms in
 * (0, {@link MAX_LEASE_MS}], `now` a finite number of epoch ms, `claim` a string, `acknowledge` a boolean.
 * @throws MailroomError INVALID_ARGUMENT naming the option, before anything is handed out or written
 */
export function checkTakeOptions(o: unknown): void {
  const bad = (what: string, got: unknown) => new MailroomError('INVALID_ARGUMENT', `takeUnread: ${what}; got ${shownValue(got)}.`, { details: { got: typeof got } });
  if (typeof o !== 'object' || o === null) throw bad('the options must be an object with a reader', o);
  const t = o as Record<string, unknown>;
  const number = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
  if (typeof t.reader !== 'string' || t.reader === '') throw bad('reader must be a non-empty string (a reader claim token, or any id of the reader)', t.reader);
  if (t.limit !== undefined && !(number(t.limit) && Number.isInteger(t.limit) && t.limit >= 1)) throw bad('limit must be a whole number ≥ 1 (or left out: all)', t.limit);
  if (t.leaseMs !== undefined && !(number(t.leaseMs) && t.leaseMs > 0 && t.leaseMs <= MAX_LEASE_MS)) throw bad(`leaseMs must be a number of ms > 0 and ≤ ${MAX_LEASE_MS}`, t.leaseMs);
  if (t.now !== undefined && !(number(t.now) && t.now >= 0)) throw bad('now must be a finite number of epoch ms', t.now);
  if (t.claim !== undefined && typeof t.claim !== 'string') throw bad('claim must be a reader claim token (a string)', t.claim);
  if (t.acknowledge !== undefined && typeof t.acknowledge !== 'boolean') throw bad('acknowledge must be true or false', t.acknowledge);
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
