/**
 * Inbox files: `teams/<inboxTeam>/inboxes/<agent>.json`, a JSON array, locked with
 * `<agent>.json.lock` (reference §3, §6). Created lazily as `[]` with an exclusive create, then
 * appended to under the lock; every write is atomic (temp file + rename).
 */
import { readdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isErrno } from '../../errors.js';
import { InboxEntrySchema, type InboxEntry } from '../../protocol/inbox.js';
import { corruptFile, readJsonFile, writeJsonFile, FILE_MODE } from '../json-file.js';
import { withLock } from '../lock.js';
import { lockDirFor } from '../paths.js';
import { ensureDir, type FsContext } from './context.js';

/** Reads the raw array of an inbox; `undefined` when the file does not exist. @throws FILE_CORRUPT */
async function readRaw(path: string): Promise<unknown[] | undefined> {
  const read = await readJsonFile(path);
  if (read.state === 'missing') return undefined;
  if (!Array.isArray(read.value)) throw corruptFile(path, undefined, 'is not a JSON array');
  return read.value;
}

/** The entries of a raw array that match the entry schema (others are kept on disk but not shown). */
function validEntries(raw: unknown[]): InboxEntry[] {
  return raw.filter((e): e is InboxEntry => InboxEntrySchema.safeParse(e).success);
}

/** Valid entries of an inbox in file order; a missing inbox is empty. */
export async function readInbox(ctx: FsContext, team: string, agent: string): Promise<InboxEntry[]> {
  return validEntries((await readRaw(ctx.layout.inboxPath(team, agent))) ?? []);
}

/** Creates the inbox as `[]` unless it exists (exclusive create, as Claude Code 2.1.109 does). */
async function ensureInbox(path: string): Promise<void> {
  await ensureDir(dirname(path));
  try {
    await writeFile(path, '[]', { flag: 'wx', mode: FILE_MODE });
  } catch (err) {
    if (!isErrno(err, 'EEXIST')) throw err;
  }
}

/** Appends entries under the lock, keeping (`from`, `timestamp`, `text`) unique. */
export async function appendToInbox(ctx: FsContext, team: string, agent: string, entries: InboxEntry[]): Promise<InboxEntry[]> {
  const path = ctx.layout.inboxPath(team, agent);
  await ensureInbox(path);
  return withLock(path, lockDirFor(path), ctx.lock, async (lock) => {
    const raw = (await readRaw(path)) ?? [];
    const taken = new Set(validEntries(raw).map(tripleKey));
    for (const entry of entries) {
      while (taken.has(tripleKey(entry))) entry.timestamp = new Date(Date.parse(entry.timestamp) + 1).toISOString();
      taken.add(tripleKey(entry));
      raw.push(entry);
    }
    await writeJsonFile(path, raw, lock);
    return entries;
  });
}

/** Locked read-modify-write of an existing inbox (missing → `change([])`, nothing written). */
export async function updateInbox<T>(ctx: FsContext, team: string, agent: string, change: (entries: InboxEntry[]) => T | Promise<T>): Promise<T> {
  const path = ctx.layout.inboxPath(team, agent);
  if ((await readRaw(path)) === undefined) return change([]);
  return withLock(path, lockDirFor(path), ctx.lock, async (lock) => {
    const raw = (await readRaw(path)) ?? [];
    const result = await change(validEntries(raw));
    await writeJsonFile(path, raw, lock);
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

function tripleKey(entry: InboxEntry): string {
  return `${entry.from}\u0000${entry.timestamp}\u0000${entry.text}`;
}
