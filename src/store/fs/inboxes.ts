/**
 * Inbox files: `teams/<inboxTeam>/inboxes/<agent>.json`, a JSON array, locked with
 * `<agent>.json.lock` (reference §3, §6). Created lazily as `[]` with an exclusive create, then
 * appended to under the lock; every write is atomic (temp file + rename).
 *
 * Bounded growth (../shared/cases/03, docs/format.md "Inbox archive"): when the caller allows it
 * and the live file passes {@link ARCHIVE_TRIGGER_BYTES}, an append first moves the *read entries
 * at the head* of the array to the archive (inbox-archive.ts), under the same lock. Unread entries
 * are never moved or reordered; only their positions shift, which is why the caller must not allow
 * it for readers that mark entries by array index (Claude Code 2.1.109 in-process teammates).
 */
import { readdir } from 'node:fs/promises';
import { isErrno } from '../../errors.js';
import { InboxEntrySchema, type InboxEntry } from '../../protocol/inbox.js';
import { corruptFile, readJsonFile, writeJsonFile } from '../json-file.js';
import { withLock, type HeldLock } from '../lock.js';
import type { LockedWriteOptions } from '../locked-write.js';
import { lockDirFor } from '../paths.js';
import type { InboxAppendOptions } from '../store.js';
import type { FsContext } from './context.js';
import { appendToArchive, readArchive } from './inbox-archive.js';
import { ensureInbox, exists } from './inbox-create.js';
import { appendThroughSpool, clearSpool, combiningEnabled, type SpooledBatch } from './inbox-spool.js';
import { entryIdentity, mergeInbox } from './recover-inbox.js';

/** A send may archive once the live file is larger than this (bytes of JSON text). */
export const ARCHIVE_TRIGGER_BYTES = 64 * 1024;
/** …and only if the read head would free at least this much (bytes), so archiving stays rare. */
const ARCHIVE_MIN_HEAD_BYTES = ARCHIVE_TRIGGER_BYTES / 4;

interface RawInbox {
  raw: unknown[];
  /** Length of the file's text (characters; bytes for ASCII). */
  chars: number;
  /** The file's text as read (the base a repaired write merges from, src/store/locked-write.ts). */
  text: string;
}

/** Reads the raw array of an inbox and its size; `undefined` when the file does not exist. @throws FILE_CORRUPT */
async function readRaw(path: string): Promise<RawInbox | undefined> {
  const read = await readJsonFile(path);
  if (read.state === 'missing') return undefined;
  if (!Array.isArray(read.value)) throw corruptFile(path, undefined, 'is not a JSON array');
  return { raw: read.value, chars: read.chars, text: read.text };
}

/** The entries of a raw array that match the entry schema (others are kept on disk but not shown). */
function validEntries(raw: unknown[]): InboxEntry[] {
  return raw.filter((e): e is InboxEntry => InboxEntrySchema.safeParse(e).success);
}

/** Valid entries of an inbox in file order; a missing inbox is empty. */
export async function readInbox(ctx: FsContext, team: string, agent: string): Promise<InboxEntry[]> {
  return validEntries((await readRaw(ctx.layout.inboxPath(team, agent)))?.raw ?? []);
}

/** Valid entries of the agent's archive, oldest first (may repeat a live entry after a crash). */
export async function readInboxArchive(ctx: FsContext, team: string, agent: string): Promise<InboxEntry[]> {
  return (await readArchive(ctx, team, agent)).entries;
}

/**
 * Appends entries under the lock, keeping (`from`, `timestamp`, `text`) unique; when the lock is
 * taken, through the inbox's spool (inbox-spool.ts), so appends are fair and share writes.
 */
export async function appendToInbox(ctx: FsContext, team: string, agent: string, entries: InboxEntry[], options: InboxAppendOptions = {}): Promise<InboxEntry[]> {
  const path = ctx.layout.inboxPath(team, agent);
  await ensureInbox(path);
  const append = async (lock: HeldLock, spooled: SpooledBatch[], withOwn = true) => {
    const { raw, chars, text } = (await readRaw(path)) ?? { raw: [] as unknown[], chars: 0, text: undefined };
    const taken = new Set(validEntries(raw).map(tripleKey));
    const ids = new Set(raw.map(entryIdentity));
    for (const entry of [...spooled.flatMap((b) => b.entries.filter(isEntry)), ...(withOwn ? entries : [])]) {
      if (entry.msg_id !== undefined && ids.has(entryIdentity(entry))) continue; // a spooled batch already appended
      while (taken.has(tripleKey(entry))) entry.timestamp = new Date(Date.parse(entry.timestamp) + 1).toISOString();
      taken.add(tripleKey(entry));
      ids.add(entryIdentity(entry));
      raw.push(entry);
    }
    if (options.archiveRead && chars > ARCHIVE_TRIGGER_BYTES) await archiveReadHead(ctx, team, agent, raw, lock, ARCHIVE_MIN_HEAD_BYTES);
    await writeJsonFile(path, raw, lock, inboxRecovery(text));
    await clearSpool(spooled);
    return entries;
  };
  if (!combiningEnabled()) return withLock(path, lockDirFor(path), ctx.lock, (lock) => append(lock, []));
  return (await appendThroughSpool(path, lockDirFor(path), ctx.lock, entries, append)) ?? entries;
}

function isEntry(e: unknown): e is InboxEntry {
  return InboxEntrySchema.safeParse(e).success;
}

/**
 * Moves the read entries at the head of the inbox to its archive now, whatever the file's size.
 * @returns how many entries were moved (0: nothing written).
 */
export async function archiveInbox(ctx: FsContext, team: string, agent: string): Promise<number> {
  const path = ctx.layout.inboxPath(team, agent);
  if (!(await exists(path))) return 0;
  return withLock(path, lockDirFor(path), ctx.lock, async (lock) => {
    const { raw, text } = (await readRaw(path)) ?? { raw: [] as unknown[], text: undefined };
    const moved = await archiveReadHead(ctx, team, agent, raw, lock, 0);
    if (moved > 0) await writeJsonFile(path, raw, lock, inboxRecovery(text));
    return moved;
  });
}

/** Appends the read head of `raw` to the archive and removes it from `raw` (if ≥ `minBytes`). */
async function archiveReadHead(ctx: FsContext, team: string, agent: string, raw: unknown[], lock: HeldLock, minBytes: number): Promise<number> {
  let count = 0;
  let headBytes = 0;
  for (const e of raw) {
    if (!InboxEntrySchema.safeParse(e).success || (e as InboxEntry).read !== true) break;
    count++;
    headBytes += JSON.stringify(e).length;
  }
  if (count === 0 || headBytes < minBytes) return 0;
  await appendToArchive(ctx, team, agent, raw.slice(0, count), lock);
  raw.splice(0, count);
  return count;
}

/** Locked read-modify-write of an existing inbox (missing → `change([])`, nothing written). */
export async function updateInbox<T>(ctx: FsContext, team: string, agent: string, change: (entries: InboxEntry[]) => T | Promise<T>): Promise<T> {
  const path = ctx.layout.inboxPath(team, agent);
  if (!(await exists(path))) return change([]);
  return withLock(path, lockDirFor(path), ctx.lock, async (lock) => {
    const { raw, text } = (await readRaw(path)) ?? { raw: [] as unknown[], text: undefined };
    const result = await change(validEntries(raw));
    await writeJsonFile(path, raw, lock, inboxRecovery(text));
    return result;
  });
}

/** Agent names that have an inbox file in the team. */
export async function listInboxes(ctx: FsContext, team: string): Promise<string[]> {
  try {
    const files = await readdir(ctx.layout.inboxDir(team));
    return files.filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -'.json'.length)).sort();
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return [];
    throw err;
  }
}

/** How a write of an inbox read as `baseText` is repaired if it lands after its lock was lost. */
function inboxRecovery(baseText: string | undefined): LockedWriteOptions {
  return { recovery: { baseText, merge: mergeInbox } };
}

function tripleKey(entry: InboxEntry): string {
  return `${entry.from}\u0000${entry.timestamp}\u0000${entry.text}`;
}
