/**
 * Inboxes on Redis: every transition is one script (append, take, acknowledge, release, mark
 * read, archive, set aside); reads are one read-only script each, so they see one instant.
 */
import { checkIdempotencyKey } from '../../domain/idempotency-key.js';
import { randomUUID } from '../../protocol/random.js';
import type { InboxEntry } from '../../protocol/inbox.js';
import { DEFAULT_LEASE_MS, checkTakeOptions } from '../../domain/leases.js';
import { stampNow } from '../health.js';
import type { AcknowledgeOptions, AppendOptions, AppendResult, InboxHistory, InboxRef, Lease, OpContext, OutgoingMessage, StoredMessage, TakeOptions, Transition } from '../team-store.js';
import { assembleEntry, entryParts } from './codec.js';
import { envOf, nowOf, retryUnavailable, runOnce, type RedisContext } from './context.js';

/** Idempotency keys are kept this long (ms): the contract promises at least 24 h. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** Keys the store makes itself for a call without one, only to replay its own retry (ms). */
export const AUTO_KEY_TTL_MS = 60_000;

/** One live entry as read-inbox.lua returns it. */
export interface InboxRow {
  doc: string;
  unread: boolean;
  seq: string;
}

/** Reads an inbox's rows and its append counter in one snapshot. */
export async function readInboxRows(rc: RedisContext, team: string, member: string, part: 'live' | 'archive'): Promise<{ seq: string; rows: InboxRow[] }> {
  const value = (await runOnce(rc, 'read-inbox', team, [member, part])).value as unknown[];
  const rows = (value.slice(1) as string[][]).map(([doc, unread, seq]) => ({ doc: doc!, unread: unread === '1', seq: seq ?? '' }));
  return { seq: String(value[0]), rows };
}

/**
 * The ARGV of one append-messages call (lua/append-messages.lua) for `messages` (at least one): the
 * event envelope, the idempotency key (the caller's, else one of the store's own for its retry)
 * and its TTL (ms), then the messages, each split around its timestamp (codec.ts `entryParts`).
 * Exported for bench 80's floor, which sends the same call through another client.
 */
export function appendArgs(team: string, messages: readonly OutgoingMessage[], options: AppendOptions = {}): string[] {
  const own = options.idempotencyKey !== undefined;
  const key = options.idempotencyKey ?? `auto:${randomUUID()}`;
  const args = [envOf(team, options), key, String(own ? IDEMPOTENCY_TTL_MS : AUTO_KEY_TTL_MS), String(messages.length)];
  for (const m of messages) {
    const p = entryParts(m.entry);
    args.push(m.to, p.pre, p.tsq, p.post, p.ms, p.from, p.text, p.msgId, p.read);
  }
  return args;
}

/** Appends messages. @throws TEAM_NOT_FOUND, MEMBER_NOT_FOUND (nothing written) */
export async function appendMessages(rc: RedisContext, team: string, messages: readonly OutgoingMessage[], options: AppendOptions = {}): Promise<Transition<AppendResult>> {
  checkIdempotencyKey(options.idempotencyKey);
  if (messages.length === 0) return { value: { messages: [], replayed: false }, events: [] };
  const own = options.idempotencyKey !== undefined;
  const args = appendArgs(team, messages, options);
  const out = await retryUnavailable(() => runOnce(rc, 'append-messages', team, args));
  const [state, payload] = out.value as [string, unknown];
  const pairs = state === 'replayed' ? (JSON.parse(String(payload)) as string[][]) : (payload as string[][]);
  // The third value is whether the entry is unread now (a msg_id already stored may have been read).
  const stored: StoredMessage[] = pairs.map(([to, doc, unread]) => ({ to: to!, entry: unread === undefined ? (JSON.parse(doc!) as InboxEntry) : assembleEntry(doc!, unread === '1') }));
  // A replay of the store's own (random) key can only be this call's retry: to the caller it is
  // the first append. Its events went to the journal with the try whose reply was lost, and are
  // not returned again.
  const replayed = state === 'replayed' && own;
  return { value: { messages: stored, replayed }, events: state === 'replayed' ? [] : out.events };
}

/** Valid entries of an inbox in order. */
export async function readInbox(rc: RedisContext, team: string, member: string): Promise<InboxEntry[]> {
  return (await readInboxRows(rc, team, member, 'live')).rows.map((r) => assembleEntry(r.doc, r.unread));
}

/** Archived entries (always read); nothing is ever set aside on Redis. */
export async function readInboxHistory(rc: RedisContext, team: string, member: string): Promise<InboxHistory> {
  const archived = (await readInboxRows(rc, team, member, 'archive')).rows.map((r) => assembleEntry(r.doc, false));
  return { archived, setAside: [] };
}

/** Every inbox that exists, members' and others'. */
export async function listInboxes(rc: RedisContext, team: string): Promise<InboxRef[]> {
  const rows = (await runOnce(rc, 'list-inboxes', team, [])).value as string[][];
  return rows.map(([name, member]) => ({ name: name!, member: member === '1' })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Hands out unread entries exactly once across readers. */
export async function takeUnread(rc: RedisContext, team: string, member: string, options: TakeOptions): Promise<Transition<Lease>> {
  checkTakeOptions(options);
  const leaseId = randomUUID();
  const args = [envOf(team, options), member, options.reader, leaseId, options.limit === undefined ? '' : String(options.limit), String(options.leaseMs ?? DEFAULT_LEASE_MS), String(nowOf(options)), options.acknowledge ? '1' : '', options.claim ?? ''];
  const out = await retryUnavailable(() => runOnce(rc, 'take-unread', team, args, { who: member }));
  const [id, until, remaining, docs, counts] = out.value as [string, string, string, string[], string[]];
  // Acknowledged in the step: the entries are handed out as they are stored now, read.
  const entries = docs.map((d) => assembleEntry(d, !options.acknowledge));
  return { value: { id, reader: options.reader, until: Number(until), entries, deliveries: docs.map((_, i) => Number(counts[i] ?? 1)), remaining: Number(remaining) }, events: out.events };
}

/** Marks a lease's entries read and ends it. */
export async function acknowledge(rc: RedisContext, team: string, member: string, leaseId: string, options: AcknowledgeOptions = {}): Promise<Transition<number>> {
  const keys = options.keys ?? [];
  // No keys: nothing to mark, and the lease keeps all it holds (as on the filesystem).
  if (options.keys !== undefined && keys.length === 0) return { value: 0, events: [] };
  const out = await runOnce(rc, 'acknowledge', team, [envOf(team, options), member, leaseId, String(nowOf(options)), String(keys.length), ...keys, options.claim ?? ''], { who: member });
  return { value: Number((out.value as string[])[0]), events: out.events };
}

/** Puts a lease's entries back to unread. */
export async function release(rc: RedisContext, team: string, member: string, leaseId: string, ctx?: OpContext): Promise<Transition<number>> {
  const out = await runOnce(rc, 'release', team, [envOf(team, ctx), member, leaseId]);
  return { value: Number((out.value as string[])[0]), events: out.events };
}

/** Marks entries read by identity. */
export async function markRead(rc: RedisContext, team: string, member: string, keys: readonly string[], ctx?: OpContext): Promise<Transition<number>> {
  if (keys.length === 0) return { value: 0, events: [] };
  const out = await runOnce(rc, 'mark-read', team, [envOf(team, ctx), member, String(keys.length), ...keys]);
  return { value: Number((out.value as string[])[0]), events: out.events };
}

/** Moves the read head to the archive. */
export async function archiveInbox(rc: RedisContext, team: string, member: string): Promise<Transition<number>> {
  const out = await runOnce(rc, 'archive-inbox', team, [member]);
  return { value: Number((out.value as string[])[0]), events: out.events };
}

/** Moves a whole inbox aside. */
export async function setInboxAside(rc: RedisContext, team: string, name: string): Promise<Transition<string | undefined>> {
  const out = await runOnce(rc, 'set-inbox-aside', team, [name, stampNow()]);
  return { value: out.value === null ? undefined : String((out.value as string[])[0]), events: out.events };
}
