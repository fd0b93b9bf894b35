/**
 * Inbox files: `teams/<inboxTeam>/inboxes/<agent>.json`, a JSON array, locked with
 * `<agent>.json.lock` (reference §3, §6). Created lazily as `[]` with an exclusive create, then
 * changed only under the lock; every write is the locked write step of src/store/fs/locked-write.ts
 * (atomic; a write that lands after its lock was lost merges back by entry identity), and each
 * transition journals its events right after its write, still under the lock. Appends are in
 * inbox-append.ts.
 *
 * No caller ever gets the array: every change is one of the transitions below, which keep every
 * element of the file — valid entries are changed in place, other elements stay untouched where
 * they are (the fault of the old `updateInbox(callback)`, which handed callers a filtered copy whose
 * pushes and splices were silently lost, cannot occur).
 *
 * Bounded growth (../shared/cases/03, docs/format.md "Inbox archive"): the *read entries at the
 * head* of the array move to the archive (inbox-archive.ts) under the inbox lock — never in an
 * append (issue 24 item 4: no send pays for archiving), but in the step of a reader that marks
 * entries read and allows it ({@link archiveIfLarge}), and in {@link archiveInbox} (on request, or
 * `pastTrigger` by the archiver beside the sends: core/messages/inbox-archiver.ts).
 */
import { readFile, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isErrno } from '../../errors.js';
import { entryKey, isEarlierShutdownRequest, isUnreadEntry } from '../../domain/entries.js';
import { deliveryEvent } from '../../domain/events.js';
import type { TeamEventRecord } from '../../protocol/events.js';
import { isInboxEntry, type InboxEntry } from '../../protocol/inbox.js';
import { stampNow } from '../health.js';
import { corruptFile, readJsonFile, writeJsonFile } from './json-file.js';
import type { HeldLock } from './lock.js';
import type { LockedWriteOptions } from './locked-write.js';
import { pathPart } from './names.js';
import type { ArchiveOptions, InboxHistory, InboxRef, MarkReadOptions, OpContext, Transition } from '../team-store.js';
import { exists, locked, stampOf, type FsContext } from './context.js';
import { appendToArchive, readArchive } from './inbox-archive.js';
import { journal } from './journal.js';
import { mergeInbox } from './recover-inbox.js';
import { salvageInboxText } from './inbox-salvage.js';
import { readConfigAt } from './teams.js';

/** A reader (or the archiver) moves the read head once the live file is larger than this (bytes of JSON text). */
export const ARCHIVE_TRIGGER_BYTES = 64 * 1024;
/** …and only if the read head would free at least this much (bytes of JSON text), so archiving stays rare. */
export const ARCHIVE_MIN_HEAD_BYTES = ARCHIVE_TRIGGER_BYTES / 4;

/** An inbox as read under its lock: the raw array (every element) and its valid entries (the same objects). */
export interface OpenInbox {
  raw: unknown[];
  entries: InboxEntry[];
  /** Length of the file's text (characters; bytes for ASCII). */
  chars: number;
  /** The file's text as read (the base a displaced write merges from, src/store/fs/locked-write.ts). */
  text: string;
  lock: HeldLock;
}

/**
 * Reads the raw array of an inbox, its size and text; `undefined` when the file does not exist.
 * `known`: an earlier read whose array is returned as is when the text is the same (json-file.ts). @throws FILE_CORRUPT
 */
export async function readRaw(path: string, known?: { text: string; raw: unknown[] }): Promise<{ raw: unknown[]; chars: number; text: string } | undefined> {
  const read = await readJsonFile(path, { known: known && { text: known.text, value: known.raw } });
  if (read.state === 'missing') return undefined;
  if (!Array.isArray(read.value)) throw corruptFile(path, undefined, 'is not a JSON array');
  return { raw: read.value, chars: read.chars, text: read.text };
}

/**
 * Writes an inbox array under its lock. `baseText` (the file as read under that lock) lets a write
 * that lands after the lock was lost merge back what the other holder wrote (recover-inbox.ts).
 */
export async function writeInboxArray(path: string, raw: unknown[], lock: HeldLock, baseText: string | undefined): Promise<void> {
  const options: LockedWriteOptions = { recovery: { baseText, merge: mergeInbox } };
  await writeJsonFile(path, raw, lock, options);
}

/** Writes an inbox opened by {@link withInbox} (its array as changed in place). */
export function saveInbox(ctx: FsContext, team: string, agent: string, inbox: OpenInbox): Promise<void> {
  return writeInboxArray(ctx.layout.inboxPath(team, agent), inbox.raw, inbox.lock, inbox.text);
}

/** The elements of a raw array that match the entry schema (the same objects: changing them changes the array). */
export function validEntries(raw: unknown[]): InboxEntry[] {
  return raw.filter(isInboxEntry);
}

/** Valid entries of an inbox in file order; a missing inbox is empty. */
export async function readInbox(ctx: FsContext, team: string, agent: string): Promise<InboxEntry[]> {
  return validEntries((await readRaw(ctx.layout.inboxPath(team, agent)))?.raw ?? []);
}

/** An inbox as one read found it: its text and valid entries (`text` undefined: no file). */
export interface InboxLook {
  text: string | undefined;
  entries: InboxEntry[];
}

/**
 * Reads an inbox's valid entries with the text they came from. With `earlier` (a look of this
 * same caller's, whose entries nobody else holds), a file whose text is unchanged is not parsed or
 * checked again: its entries are `earlier`'s (a take's look without a lock, then its read under
 * the lease sidecar's lock, issue 24). The file is read either way. @throws FILE_CORRUPT
 */
export async function lookAtInbox(ctx: FsContext, team: string, agent: string, earlier?: InboxLook): Promise<InboxLook> {
  const read = await readRaw(ctx.layout.inboxPath(team, agent), earlier?.text === undefined ? undefined : { text: earlier.text, raw: earlier.entries });
  if (read === undefined) return { text: undefined, entries: [] };
  // The same text: `raw` is earlier's entries array, already only valid entries.
  return { text: read.text, entries: read.raw === earlier?.entries ? earlier.entries : validEntries(read.raw) };
}

/**
 * The inbox's archived entries (oldest first; may repeat a live entry after a crash) and
 * quarantined ones: the valid entries of `<agent>.json.corrupt-*` files beside the inbox (kept by
 * `doctor --fix`, or by an older mailroom that moved a corrupt inbox aside whole) that are not in
 * the live inbox, oldest file first.
 */
export async function readInboxHistory(ctx: FsContext, team: string, agent: string): Promise<InboxHistory> {
  return { archived: (await readArchive(ctx, team, agent)).entries, setAside: await readQuarantined(ctx.layout.inboxPath(team, agent)) };
}

async function readQuarantined(path: string): Promise<InboxEntry[]> {
  const prefix = `${basename(path)}.corrupt-`;
  const names = (await readdir(dirname(path)).catch(() => [] as string[])).filter((n) => n.startsWith(prefix)).sort();
  if (names.length === 0) return [];
  const live = new Set((await readRaw(path).catch(() => undefined))?.raw.filter(isInboxEntry).map(entryKey));
  const out: InboxEntry[] = [];
  for (const name of names) {
    const text = await readFile(join(dirname(path), name), 'utf8').catch(() => '');
    for (const entry of salvageInboxText(text).entries) {
      if (live.has(entryKey(entry))) continue;
      live.add(entryKey(entry));
      out.push(entry);
    }
  }
  return out;
}

/**
 * Runs `fn` on the inbox under its lock (an existing inbox only: `undefined` when there is none;
 * `known`: the caller just read it, so its existence is not checked again), then writes the array
 * when `fn` says so, all before the lock is released.
 */
export async function withInbox<T>(ctx: FsContext, team: string, agent: string, fn: (inbox: OpenInbox) => Promise<{ result: T; write: boolean }>, known = false): Promise<T | undefined> {
  const path = ctx.layout.inboxPath(team, agent);
  if (!known && !(await exists(path))) return undefined;
  return locked(ctx, path, async (lock) => {
    const read = await readRaw(path);
    if (!read) return undefined;
    const inbox: OpenInbox = { raw: read.raw, entries: validEntries(read.raw), chars: read.chars, text: read.text, lock };
    const { result, write } = await fn(inbox);
    if (write) await saveInbox(ctx, team, agent, inbox);
    return result;
  });
}

/**
 * Moves the read entries at the head of the inbox to its archive now, whatever the file's size —
 * or, `pastTrigger`, only when the file is over {@link ARCHIVE_TRIGGER_BYTES} (looked at with a
 * `stat` first: a smaller inbox is neither locked nor read) and the head frees at least
 * {@link ARCHIVE_MIN_HEAD_BYTES}. @returns how many entries were moved (0: nothing written).
 */
export async function archiveInbox(ctx: FsContext, team: string, agent: string, options: ArchiveOptions = {}): Promise<Transition<number>> {
  if (options.pastTrigger && !(await fileOverTrigger(ctx.layout.inboxPath(team, agent)))) return { value: 0, events: [] };
  const moved = await withInbox(ctx, team, agent, async (inbox) => {
    const n = options.pastTrigger ? await archiveIfLarge(ctx, team, agent, inbox, options.onlyKeys) : await archiveReadHead(ctx, team, agent, inbox, 0, options.onlyKeys);
    return { result: n, write: n > 0 };
  });
  return { value: moved ?? 0, events: [] };
}

async function fileOverTrigger(path: string): Promise<boolean> {
  const size = await stat(path).then((s) => s.size, () => 0);
  return size > ARCHIVE_TRIGGER_BYTES;
}

/**
 * In a locked step that is about to write `inbox`: moves its read head to the archive when the file
 * as read is over {@link ARCHIVE_TRIGGER_BYTES} (UTF-8 bytes, as `stat` counts them) and the head frees at least
 * {@link ARCHIVE_MIN_HEAD_BYTES}. The caller writes the inbox afterwards (the archive is fsynced
 * first). @returns how many entries moved out of `inbox.raw`
 */
export async function archiveIfLarge(ctx: FsContext, team: string, agent: string, inbox: OpenInbox, onlyKeys?: ReadonlySet<string>): Promise<number> {
  // Bytes, as the archiver's `stat` sees the file. UTF-8 takes at most 3 bytes per UTF-16 unit, so
  // a text under a third of the trigger is under it, and one over it in units is over it: the bytes
  // are counted only in between (non-ASCII text).
  if (inbox.chars * 3 <= ARCHIVE_TRIGGER_BYTES) return 0;
  if (inbox.chars <= ARCHIVE_TRIGGER_BYTES && Buffer.byteLength(inbox.text) <= ARCHIVE_TRIGGER_BYTES) return 0;
  return archiveReadHead(ctx, team, agent, inbox, ARCHIVE_MIN_HEAD_BYTES, onlyKeys);
}

/**
 * Appends the read head of the inbox (its leading elements that are valid, read entries) to the
 * archive and removes it from `raw` and `entries` — if its JSON text is at least `minBytes` long.
 * With `onlyKeys`, the head also ends at the first entry whose key is not in it.
 * @returns how many entries moved
 */
async function archiveReadHead(ctx: FsContext, team: string, agent: string, inbox: OpenInbox, minBytes: number, onlyKeys?: ReadonlySet<string>): Promise<number> {
  // `entries` are `raw`'s valid elements, the same objects in the same order: the head is a prefix of both.
  const lines: string[] = [];
  let headBytes = 0;
  for (const [i, e] of inbox.raw.entries()) {
    if (e !== inbox.entries[i] || (e as InboxEntry).read !== true) break;
    if (onlyKeys && !onlyKeys.has(entryKey(e as InboxEntry))) break;
    const line = JSON.stringify(e);
    lines.push(line);
    headBytes += Buffer.byteLength(line);
  }
  if (lines.length === 0 || headBytes < minBytes) return 0;
  await appendToArchive(ctx, team, agent, lines, inbox.lock);
  inbox.raw.splice(0, lines.length);
  inbox.entries.splice(0, lines.length);
  return lines.length;
}

/**
 * Sets `read: true` on the unread entries whose {@link entryKey} is in `keys`, under the inbox
 * lock; journals a `delivery read` per entry. With `archiveRead`, a marking step on a large inbox
 * first moves its read head to the archive ({@link archiveIfLarge}). @returns how many changed
 */
export async function markRead(ctx: FsContext, team: string, agent: string, keys: readonly string[], op: MarkReadOptions = {}): Promise<Transition<number>> {
  const wanted = new Set(keys);
  const events: TeamEventRecord[] = [];
  const changed = await withInbox(ctx, team, agent, async (inbox) => {
    const marked = markEntries(inbox.entries, wanted);
    if (marked.length > 0) {
      if (op.archiveRead) await archiveIfLarge(ctx, team, agent, inbox);
      await saveInbox(ctx, team, agent, inbox);
      const s = stampOf(team, op);
      events.push(...marked.map((k) => deliveryEvent(s, agent, k, 'read')));
      await journal(ctx, team, events);
    }
    return { result: marked.length, write: false };
  });
  return { value: changed ?? 0, events };
}

/** Marks the unread entries with a key in `keys` read, in place. @returns their keys */
export function markEntries(entries: readonly InboxEntry[], keys: ReadonlySet<string>): string[] {
  const marked: string[] = [];
  for (const e of entries) {
    if (!isUnreadEntry(e) || !keys.has(entryKey(e))) continue;
    e.read = true;
    marked.push(entryKey(e));
  }
  return marked;
}

/**
 * Marks read, under the inbox lock, every unread `shutdown_request` timestamped before `joinedAt`
 * (addressed to an earlier member of the name). The inbox is read first without the lock: most
 * spawns find none, and then the inbox (possibly Claude Code's file) is neither created nor rewritten.
 * @returns the events (`delivery read` per request)
 */
export async function retireEarlierShutdownRequests(ctx: FsContext, team: string, agent: string, joinedAt: number, op?: OpContext): Promise<TeamEventRecord[]> {
  const stale = (e: InboxEntry) => isEarlierShutdownRequest(e, joinedAt);
  const keys = (await readInbox(ctx, team, agent)).filter(stale).map(entryKey);
  if (keys.length === 0) return [];
  return (await markRead(ctx, team, agent, keys, op)).events;
}

/**
 * Every inbox file of the team, by member name: a file belongs to each member whose name Claude
 * Code's sanitiser maps to it; a file that no member's name maps to is listed under its own name,
 * `member: false`.
 */
export async function listInboxes(ctx: FsContext, team: string): Promise<InboxRef[]> {
  const stems = await inboxStems(ctx, team);
  if (stems.length === 0) return [];
  const members = await memberNames(ctx, team);
  const refs: InboxRef[] = [];
  for (const stem of stems) {
    const owners = members.filter((m) => pathPart(m) === stem);
    if (owners.length === 0) refs.push({ name: stem, member: false });
    for (const name of owners) refs.push({ name, member: true });
  }
  return refs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Member names of the team's roster ([] when its config is missing or unreadable). */
export async function memberNames(ctx: FsContext, team: string): Promise<string[]> {
  const config = await readConfigAt(ctx.layout.configPath(team)).catch(() => undefined);
  return config?.name === team ? config.members.map((m) => m.name) : [];
}

async function inboxStems(ctx: FsContext, team: string): Promise<string[]> {
  try {
    const files = await readdir(ctx.layout.inboxDir(team));
    return files.filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -'.json'.length)).sort();
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return [];
    throw err;
  }
}

/**
 * Renames an inbox aside to `<agent>.json.orphaned-<stamp>` under its lock (its leases go with it).
 * @returns the new path, for humans, or undefined when there was no inbox
 */
export async function setInboxAside(ctx: FsContext, team: string, agent: string): Promise<Transition<string | undefined>> {
  const path = ctx.layout.inboxPath(team, agent);
  if (!(await exists(path))) return { value: undefined, events: [] };
  const moved = await locked(ctx, path, async (lock) => {
    const target = `${path}.orphaned-${stampNow()}`;
    await lock.assertHeld(`moving ${path} aside`);
    try {
      await rename(path, target);
    } catch (err) {
      if (isErrno(err, 'ENOENT')) return undefined;
      throw err;
    }
    await rm(ctx.layout.leasePath(team, agent), { force: true });
    return target;
  });
  return { value: moved, events: [] };
}
