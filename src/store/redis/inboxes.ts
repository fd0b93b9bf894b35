/**
 * Inboxes on Redis: every transition is one script (append, take, acknowledge, release, mark
 * read, archive, set aside); reads are one read-only script each, so they see one instant.
 */
import { checkIdempotencyKey } from '../../domain/idempotency-key.js';
import { checkOutgoingMessage } from '../../domain/outgoing-entry.js';
import { MailroomError, isMailroomError } from '../../errors.js';
import { randomUUID } from '../../protocol/random.js';
import type { InboxEntry } from '../../protocol/inbox.js';
import { DEFAULT_LEASE_MS, checkTakeOptions } from '../../domain/leases.js';
import { stampNow } from '../health.js';
import type { AcknowledgeOptions, AppendOptions, AppendResult, InboxHistory, InboxRef, Lease, OpContext, OutgoingMessage, StoredMessage, TakeOptions, Transition } from '../team-store.js';
import { assembleEntry, entryParts, flatCopy, withReadState } from './codec.js';
import { envOf, nowOf, retryUnavailable, runOnce, runTeamScript, type RedisContext } from './context.js';
import type { OkReply } from './reply.js';
import { envelopeFields } from './stream-codec.js';
import type { TeamEventRecord } from '../../protocol/events.js';

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

/** One append-messages call: its ARGV, and the envelope of its events as an object. */
interface AppendCall {
  args: string[];
  envelope: Record<string, unknown>;
}

/** This process's part of the store's own idempotency keys (random, drawn once), and its counter. */
let autoKeys: { process: string; next: number } | undefined;

/** A key of the store's own for one call: unique across processes (random) and calls (counted). */
function autoKey(): string {
  autoKeys ??= { process: randomUUID(), next: 0 };
  return `auto:${autoKeys.process}:${++autoKeys.next}`;
}

function appendCall(team: string, messages: readonly OutgoingMessage[], options: AppendOptions): AppendCall {
  const own = options.idempotencyKey !== undefined;
  const key = options.idempotencyKey ?? autoKey();
  const env = envelopeFields({ team, now: nowOf(options), actor: options.actor });
  const args = [JSON.stringify(env), key, String(own ? IDEMPOTENCY_TTL_MS : AUTO_KEY_TTL_MS), own ? '' : '1', String(messages.length), options.expectViewStamp ?? ''];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    const p = messageParts(m);
    args.push(m.to, p.pre, p.tsq, p.post, p.ms, p.from, p.text, p.msgId, p.read);
  }
  return { args, envelope: env };
}

/**
 * One message's parts, checked before anything is sent: a call that throws here sent nothing, so
 * the append batcher runs the appends of a combined call again one by one and only the bad one
 * fails (a raw TypeError would have failed every caller of the call).
 * @throws INVALID_ARGUMENT for a message that is not an inbox entry (domain/outgoing-entry.ts: a
 * recipient, `from`, `text` or `msg_id` that is not a string, a `timestamp` that is not an ISO-8601
 * string), or an entry JSON cannot encode (a BigInt, a cycle)
 */
function messageParts(m: OutgoingMessage): ReturnType<typeof entryParts> {
  checkOutgoingMessage(m);
  try {
    return entryParts(m.entry);
  } catch (err) {
    throw new MailroomError('INVALID_ARGUMENT', `The message to ${m.to} cannot be stored as JSON (${err instanceof Error ? err.message.split('\n')[0] : String(err)}). Give an entry of plain JSON values (no BigInt, no cycles), then retry.`, { cause: err });
  }
}

/**
 * The ARGV of the first try of one append-messages call (lua/append-messages.lua) for `messages`
 * (at least one): the event envelope, the idempotency key (the caller's, else one of the store's
 * own for its retry), its TTL (ms) and whether it is new (the store's own, first try), the count,
 * the expected view stamp ('' = none), then the messages, each split around its timestamp (codec.ts `entryParts`). Exported for bench 80's
 * floor, which sends the same call through another client.
 */
export function appendArgs(team: string, messages: readonly OutgoingMessage[], options: AppendOptions = {}): string[] {
  return appendCall(team, messages, options).args;
}

/**
 * What one append-messages call did, row by row: the stored message of each message given, in
 * order, and beside it the event it journalled (undefined for a message whose msg_id was stored
 * already, or for every row of a replay). The append batcher cuts a combined call by position.
 */
export interface AppendedRows {
  messages: StoredMessage[];
  events: (TeamEventRecord | undefined)[];
  /** True when the call replayed the caller's own idempotency key (nothing written). */
  replayed: boolean;
}

/**
 * Appends messages, row by row (see {@link AppendedRows}). The script journals one message event
 * per entry it stores anew and marks its row (fourth value '1'); the events are built here from
 * the call's envelope and the stored entry, as the journal holds them, instead of coming back in
 * the reply (half its bytes).
 * @throws TEAM_NOT_FOUND, MEMBER_NOT_FOUND, VIEW_MOVED (`expectViewStamp` is not the team's stamp; nothing written), INVALID_ARGUMENT (an entry that cannot be encoded: {@link messageParts}; nothing written)
 */
export function appendRows(rc: RedisContext, team: string, messages: readonly OutgoingMessage[], options: AppendOptions = {}): Promise<AppendedRows> {
  let call: AppendCall;
  try {
    checkIdempotencyKey(options.idempotencyKey);
    if (messages.length === 0) return Promise.resolve({ messages: [], events: [], replayed: false });
    call = appendCall(team, messages, options);
  } catch (err) {
    return Promise.reject(err);
  }
  const own = options.idempotencyKey !== undefined;
  // runTeamScript, not runOnce: one promise less per append (append-messages never answers 'retry').
  const done = (out: OkReply | 'retry'): AppendedRows => {
    if (out === 'retry') throw new MailroomError('INTERNAL', 'Redis script append-messages asked for a retry it never asks for.');
    const value = out.value as [string, unknown];
    const state = value[0];
    const payload = value[1];
    return state === 'replayed' ? replayedRows(String(payload), own) : freshRows(call.envelope, payload as string[][]);
  };
  // Once more when the first try failed with STORE_UNAVAILABLE (context.ts `retryUnavailable`),
  // with its key looked up: the first try may have run, whoever made the key.
  return runTeamScript(rc, 'append-messages', team, call.args).then(done, (err: unknown) => {
    if (!(err instanceof MailroomError) || err.code !== 'STORE_UNAVAILABLE') throw err;
    return runTeamScript(rc, 'append-messages', team, retryArgs(call.args)).then(done, (again: unknown) => {
      throw afterLostReply(again);
    });
  });
}

/**
 * The message event of an entry the script journalled: the envelope's fields, then `kind`, `to`,
 * `entry`, as the journal's decoder builds it. Copied with Object.assign and then extended: V8's
 * `{ ...envelope, kind, … }` took ~2–3 µs per event (a spread followed by more keys leaves its fast
 * path), more than parsing the entry.
 */
function messageEvent(envelope: Record<string, unknown>, to: string, entry: InboxEntry): TeamEventRecord {
  const event = Object.assign({}, envelope);
  event.kind = 'message';
  event.to = to;
  event.entry = entry;
  return event as unknown as TeamEventRecord;
}

/**
 * A replay's rows: the stored messages, no events. A replay of the store's own (random) key can
 * only be this call's retry: to the caller it is the first append (`replayed` false). Its events
 * went to the journal with the try whose reply was lost, and are not returned again.
 */
function replayedRows(payload: string, own: boolean): AppendedRows {
  const stored = replayedMessages(payload);
  return { messages: stored, events: stored.map(() => undefined), replayed: own };
}

/** A fresh call's rows: each stored message, and the event of each row the script journalled. */
function freshRows(envelope: Record<string, unknown>, rows: readonly string[][]): AppendedRows {
  const stored: StoredMessage[] = [];
  const events: (TeamEventRecord | undefined)[] = [];
  // Indexed loops and no array destructuring (the iterator protocol): cheap before V8 optimizes them.
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const to = row[0];
    const doc = row[1];
    const unread = row[2];
    const journalled = row[3];
    // Parsed once: the event gets the entry as journalled, the caller a copy with its read state.
    const parsed = JSON.parse(doc!) as InboxEntry;
    if (journalled !== '1') {
      stored.push({ to: to!, entry: withReadState(parsed, unread === '1') });
      events.push(undefined);
      continue;
    }
    stored.push({ to: to!, entry: withReadState(flatCopy(parsed) ?? (JSON.parse(doc!) as InboxEntry), unread === '1') });
    events.push(messageEvent(envelope, to!, parsed));
  }
  return { messages: stored, events, replayed: false };
}

function replayedMessages(payload: string): StoredMessage[] {
  const rows = JSON.parse(payload) as string[][];
  return rows.map(([to, doc, unread]) => ({ to: to!, entry: unread === undefined ? (JSON.parse(doc!) as InboxEntry) : assembleEntry(doc!, unread === '1') }));
}

/** The recorded payload of an append key (lua/read-appended.lua), or undefined. */
async function readAppendedPayload(rc: RedisContext, team: string, key: string): Promise<string | undefined> {
  const value = (await runOnce(rc, 'read-appended', team, [key])).value as string[];
  return value[0];
}

/**
 * The messages an append with `key` stored, else undefined (TeamStore.readAppended).
 * @throws TEAM_NOT_FOUND, INVALID_ARGUMENT (an empty key)
 */
export async function readAppended(rc: RedisContext, team: string, key: string): Promise<StoredMessage[] | undefined> {
  checkIdempotencyKey(key);
  const payload = await readAppendedPayload(rc, team, key);
  return payload === undefined ? undefined : replayedMessages(payload);
}

/** Refusals the script answers only after its retry's key lookup: their retry found no first try that ran. */
const AFTER_LOOKUP = new Set(['MEMBER_NOT_FOUND', 'VIEW_MOVED']);

/** Errors of an append whose first try may have run (its reply lost), see {@link afterLostReply}. */
const uncertain = new WeakSet<object>();

/**
 * The error of a retry after a lost reply: a refusal the script gives before it looks up the key
 * (the server full, OOM: STORE_FULL; the team gone) does not say nothing was written — the first
 * try may have run. Such an error is marked ({@link mayHaveRun}), so that the append batcher does
 * not run the appends again one by one (which stored them twice), and says so.
 */
function afterLostReply(err: unknown): unknown {
  if (!(err instanceof MailroomError) || err.code === 'STORE_UNAVAILABLE' || AFTER_LOOKUP.has(err.code)) return err;
  const marked = new MailroomError(err.code, `${err.message} (The first try of this append, whose reply was lost with the connection, may have gone through: read the inbox before sending again.)`, {
    cause: err,
    details: { ...err.details, mayHaveRun: true },
  });
  uncertain.add(marked);
  return marked;
}

/** Whether `err` is the refusal of an append's retry whose first try may have run (its messages may be stored). */
export function mayHaveRun(err: unknown): boolean {
  return typeof err === 'object' && err !== null && uncertain.has(err);
}

/**
 * The ARGV of a retry: the key is looked up (the first try may have stored a reply under it) — the
 * store's own key ('r') before the recipients are checked, so that a recipient removed since the
 * first try ran does not make the retry a refusal (which the append batcher would run again append
 * by append, storing them twice).
 */
function retryArgs(args: readonly string[]): string[] {
  const again = [...args];
  again[3] = args[3] === '1' ? 'r' : '';
  return again;
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
  const [id, until, remaining, docs, counts, viewStamp] = out.value as [string, string, string, string[], string[], string];
  // Acknowledged in the step: the entries are handed out as they are stored now, read.
  const entries = docs.map((d) => assembleEntry(d, !options.acknowledge));
  return { value: { id, reader: options.reader, until: Number(until), entries, deliveries: docs.map((_, i) => Number(counts[i] ?? 1)), remaining: Number(remaining), viewStamp }, events: out.events };
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

/** Moves the read head to the archive (with `onlyKeys`: up to the first entry whose key is not in it). */
export async function archiveInbox(rc: RedisContext, team: string, member: string, onlyKeys?: ReadonlySet<string>): Promise<Transition<number>> {
  const out = await runOnce(rc, 'archive-inbox', team, onlyKeys ? [member, '1', ...onlyKeys] : [member]);
  return { value: Number((out.value as string[])[0]), events: out.events };
}

/** Moves a whole inbox aside. */
export async function setInboxAside(rc: RedisContext, team: string, name: string): Promise<Transition<string | undefined>> {
  const out = await runOnce(rc, 'set-inbox-aside', team, [name, stampNow()]);
  return { value: out.value === null ? undefined : String((out.value as string[])[0]), events: out.events };
}
