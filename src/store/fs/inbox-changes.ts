/**
 * `TeamStore.readInboxChanges` on the filesystem (issue 24 item 4): an inbox follower (the bridge)
 * parses only what was appended to the inbox file since its mark, not the whole JSON array.
 *
 * The mark keeps the file's bytes as read. The file is read again (a page-cache copy, no parse)
 * and compared byte for byte with the mark up to the end of its last element: when it is the same
 * and what follows is `,` and more elements closing the array, the inbox grew by appends only,
 * and only those elements are parsed and validated. Whoever wrote it — Claude Code in place
 * (2.1.109) or by temp file and rename (2.1.332), mailroom's locked write — does not matter; any
 * other change (a read mark, an entry removed or archived, another formatting) fails the
 * comparison and the inbox is read in full, with {@link readInbox}'s re-reads of a half-written
 * file. So no change is ever missed: at worst a delta is read as a full read.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { isErrno } from '../../errors.js';
import type { InboxChanges, InboxMark } from '../team-store.js';
import type { FsContext } from './context.js';
import { readRaw, validEntries } from './inboxes.js';
import { REREAD_PAUSES_MS } from './json-file.js';
import { sleep } from './lock.js';

/** A files inbox mark (the opaque {@link InboxMark} of this backend). */
class FsInboxMark {
  constructor(
    readonly path: string,
    /** The file as read. */
    readonly bytes: Buffer,
    /** Offset just past the last element (or past `[` when empty); the `]` follows. */
    readonly end: number,
    /** Elements of the array (valid entries or not). */
    readonly count: number,
  ) {}
}

const SPACE = new Set([0x20, 0x0a, 0x0d, 0x09]);

/** What changed in `agent`'s inbox file since `since` (see the module comment). @throws FILE_CORRUPT */
export async function readInboxChanges(ctx: FsContext, team: string, agent: string, since?: InboxMark): Promise<InboxChanges> {
  const path = ctx.layout.inboxPath(team, agent);
  const mark = since instanceof FsInboxMark && since.path === path ? since : undefined;
  for (let i = 0; mark && i <= REREAD_PAUSES_MS.length; i++) {
    const bytes = readIfRegular(path);
    if (!bytes) break;
    if (bytes.equals(mark.bytes)) return { full: false, appended: [], read: [], mark };
    const grown = appendedTail(mark, bytes);
    const end = arrayEnd(bytes);
    if (grown && end !== undefined) return { full: false, appended: validEntries(grown), read: [], mark: new FsInboxMark(path, bytes, end, mark.count + grown.length) as unknown as InboxMark };
    // Caught mid-write (Claude Code 2.1.109 truncates, then writes; a watcher is woken by the
    // truncation): what is there is the start of the marked file, or the marked file and part of a
    // tail. Read again after the pauses a half-written file gets (readJsonFile); anything else is
    // another change, read in full at once.
    if (!mayBeMidAppend(mark, bytes) || i === REREAD_PAUSES_MS.length) break;
    await sleep(REREAD_PAUSES_MS[i]!);
  }
  const read = await readRaw(path);
  const bytes = Buffer.from(read?.text ?? '[]', 'utf8');
  const entries = validEntries(read?.raw ?? []);
  return { full: true, entries, mark: new FsInboxMark(path, bytes, arrayEnd(bytes) ?? 0, read?.raw.length ?? 0) as unknown as InboxMark };
}

/** The file's bytes; undefined when missing or not a regular file (the full read says what it is). */
function readIfRegular(path: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return undefined;
    throw err;
  }
  try {
    return fstatSync(fd).isFile() ? readFileSync(fd) : undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * The elements appended after the mark's, when `bytes` is the mark's file up to its last element
 * followed by `,` and more elements closing the array; else undefined.
 */
function appendedTail(mark: FsInboxMark, bytes: Buffer): unknown[] | undefined {
  if (bytes.length <= mark.bytes.length || bytes.compare(mark.bytes, 0, mark.end, 0, mark.end) !== 0) return undefined;
  let i = mark.end;
  while (i < bytes.length && SPACE.has(bytes[i]!)) i++;
  if (mark.count > 0) {
    if (bytes[i] !== 0x2c) return undefined; // ','
    i++;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(`[${bytes.toString('utf8', i)}`);
  } catch {
    return undefined; // caught mid-write, or not an append: the full read handles it
  }
  return Array.isArray(parsed) && parsed.length > 0 ? parsed : undefined;
}

/** Whether `bytes` may be the marked file plus an append, caught half-written: a start of the marked text, or all of it up to its last element and more. */
function mayBeMidAppend(mark: FsInboxMark, bytes: Buffer): boolean {
  const n = Math.min(bytes.length, mark.end);
  return bytes.compare(mark.bytes, 0, n, 0, n) === 0;
}

/** Offset just past the array's last element (or its `[`), the `]` being the last non-space byte; undefined when not so. */
function arrayEnd(bytes: Buffer): number | undefined {
  let j = bytes.length - 1;
  while (j >= 0 && SPACE.has(bytes[j]!)) j--;
  if (bytes[j] !== 0x5d) return undefined; // ']'
  j--;
  while (j >= 0 && SPACE.has(bytes[j]!)) j--;
  return j + 1;
}
