/**
 * Documents as the Redis store keeps them: opaque JSON strings that no script re-encodes, with
 * the fields scripts reason about (read state, task status, owner, links) kept beside them.
 * This file splits documents for the scripts and puts them back together after a read, keeping
 * every key and its order (Claude Code's files must round-trip unchanged through `store copy`).
 */
import { randomUUID } from '../../protocol/random.js';
import type { Member, TeamConfig } from '../../protocol/config.js';
import type { InboxEntry } from '../../protocol/inbox.js';
import { canonicalTask, type Task } from '../../protocol/task.js';
import { FENCE_KEY, fenceOf } from '../../domain/task-fence.js';

/** An inbox entry prepared for append-messages.lua: its JSON split around the timestamp value. */
export interface EntryParts {
  pre: string;
  tsq: string;
  post: string;
  /** Epoch ms of the timestamp ('' when it does not parse). */
  ms: string;
  from: string;
  text: string;
  msgId: string;
  read: '1' | '0';
}

/** The stand-in for the timestamp while an entry is split (one per process; a random one when an entry contains it). */
let nonce: string | undefined;

/**
 * Splits an entry's JSON around its timestamp, so a script can replace it without re-encoding:
 * the entry is encoded with a random stand-in in place of its timestamp, which is cut out again.
 * The stand-in is drawn once per process (a fresh one per entry cost a UUID each); an entry whose
 * JSON holds it elsewhere too is split again around a fresh one, so the cut is always the timestamp.
 */
export function entryParts(entry: InboxEntry): EntryParts {
  nonce ??= `\u0000${randomUUID()}\u0000`;
  return entryPartsAround(entry, nonce);
}

/** {@link entryParts} with `standIn` as the timestamp's stand-in (exported for tests: an entry that contains it). */
export function entryPartsAround(entry: InboxEntry, standIn: string): EntryParts {
  let json = JSON.stringify(withTimestamp(entry, standIn));
  let marker = JSON.stringify(standIn);
  let at = json.indexOf(marker);
  while (json.indexOf(marker, at + 1) >= 0) {
    const fresh = `\u0000${randomUUID()}\u0000`;
    json = JSON.stringify(withTimestamp(entry, fresh));
    marker = JSON.stringify(fresh);
    at = json.indexOf(marker);
  }
  const ms = Date.parse(entry.timestamp);
  return {
    pre: json.slice(0, at),
    tsq: JSON.stringify(entry.timestamp),
    post: json.slice(at + marker.length),
    ms: Number.isFinite(ms) ? String(ms) : '',
    from: entry.from,
    text: entry.text,
    msgId: entry.msg_id ?? '',
    read: entry.read === true ? '1' : '0',
  };
}

/**
 * A copy of `entry` whose `timestamp` is `value`, in the same key order: a plain spread, then the
 * key set (`{ ...entry, timestamp }` leaves V8's fast path for a spread, ~2–3 µs an append; a
 * spread, unlike Object.assign, defines an own "__proto__" key as one).
 */
function withTimestamp(entry: InboxEntry, value: string): InboxEntry {
  const copy = { ...entry };
  copy.timestamp = value;
  return copy;
}

/** An entry from its stored JSON and read state; `read` is set in place (added last when absent). */
export function assembleEntry(doc: string, unread: boolean): InboxEntry {
  return withReadState(JSON.parse(doc) as InboxEntry, unread);
}

/** `entry` (parsed from its stored JSON) with its read state set in place, as {@link assembleEntry}. */
export function withReadState(entry: InboxEntry, unread: boolean): InboxEntry {
  if (!unread) entry.read = true;
  else if (entry.read === true) entry.read = false;
  return entry;
}

/**
 * A copy of `parsed` (an object JSON.parse made) that is what parsing its JSON again would give,
 * when every value is a string, number, boolean or null: a flat copy, cheaper than a second parse
 * (an append's reply needs each stored entry twice, for the caller and for its event). Undefined
 * when a value is an object or array: parse again.
 */
export function flatCopy(parsed: InboxEntry): InboxEntry | undefined {
  const from = parsed as Record<string, unknown>;
  for (const key in from) {
    const value = from[key];
    if (value !== null && typeof value === 'object') return undefined;
  }
  // A spread defines each own key as parsing does ("__proto__" included, as an own key).
  return { ...parsed };
}

/**
 * A task as scripts return it: id, document, status, owner (null: none), blocks and blockedBy as
 * JSON arrays, and its fencing token (decimal; null or absent: none). The token lives in its own
 * hash field ('fence'), never in the document, so a script can issue the next one without
 * re-encoding the document.
 */
export type TaskTuple = [id: string, doc: string, status: string, owner: string | null, blocks: string, blockedBy: string, fence?: string | number | null];

/** The task from its stored document and fields, in the document's key order (known keys added where Claude Code puts them; the fencing token last). */
export function assembleTask(tuple: readonly unknown[]): Task {
  const [id, doc, status, owner, blocks, blockedBy, fence] = tuple as TaskTuple;
  const task = JSON.parse(doc) as Record<string, unknown>;
  const keys = Object.keys(task);
  task.id = id;
  task.status = status;
  task.owner = owner === null ? undefined : owner;
  task.blocks = JSON.parse(blocks) as string[];
  task.blockedBy = JSON.parse(blockedBy) as string[];
  if (fence !== undefined && fence !== null && (fence as unknown) !== false) task[FENCE_KEY] = Number(fence);
  else delete task[FENCE_KEY];
  return canonicalTask(task as Task, keys);
}

/** The task's document without its fencing token (kept in a hash field beside it), and the token ('' = none). */
export function splitFence(task: Task): { doc: Task; fence: string } {
  const doc = { ...task } as Record<string, unknown>;
  const had = Object.hasOwn(doc, FENCE_KEY);
  delete doc[FENCE_KEY];
  return { doc: canonicalTask(doc as Task, Object.keys(doc)), fence: had ? String(fenceOf(task)) : '' };
}

/** A new task's document without its id: the script writes `{"id":"<id>"` + this. */
export function taskDocTail(task: Task): string {
  const json = JSON.stringify(canonicalTask({ ...task, id: '1' }));
  const head = '{"id":"1"';
  if (!json.startsWith(head)) throw new Error('task document does not start with its id');
  return json.slice(head.length);
}

/** The config without its roster, `members` kept in its place as `[]`. */
export function configSkeleton(config: TeamConfig): string {
  return JSON.stringify({ ...config, members: [] });
}

/** The config from its skeleton and the roster's member documents (in roster order). */
export function assembleConfig(skeleton: string, memberDocs: readonly string[]): TeamConfig {
  const config = JSON.parse(skeleton) as TeamConfig;
  config.members = memberDocs.map((doc) => JSON.parse(doc) as Member);
  return config;
}
