/**
 * The journal file `<root>/mailroom/journal/<team>.ndjson` (docs/journal.md): one team event per
 * line (src/protocol/events.ts; version 1 lines still read), appended and never rewritten. Every
 * transition appends its events here right after its write, under the lock of the file it changed.
 *
 * Appends take no lock of their own. The file is opened with O_APPEND and each batch is written with
 * one `write()` per chunk of whole lines (≤ 64 KiB, or one longer line): O_APPEND makes every write
 * land at the current end, and Linux serialises writes to one file, so lines from many processes
 * never interleave. Readers still tolerate a torn line (a writer killed mid-write, a network file
 * system): it is skipped, and a valid event glued behind it is recovered.
 *
 * Cursors are opaque to callers: `j1:<inode>:<byte offset>`. A cursor of another file (the journal
 * was moved away and a new one started, e.g. after `team delete`) or past the end (truncated by
 * hand) restarts at the beginning, with `reset` set.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileWriteError, isErrno } from '../../errors.js';
import { parseEvent, type TeamEventRecord } from '../../protocol/events.js';
import { FILE_MODE } from './json-file.js';
import type { Cursor, EventPage } from '../team-store.js';
import { ensureDir, type FsContext } from './context.js';

/** Largest write that batches several lines (bytes). */
const CHUNK_BYTES = 64 * 1024;
/** Every line mailroom writes starts with this (the `v` key is serialised first). */
const LINE_START = '{"v":';

/**
 * Appends events as NDJSON lines at the end of the team's journal (mode 0600). Best effort: the
 * change they describe is already written, so a journal that cannot be written (read-only root,
 * full disk) never fails it; a process warning with code `MAILROOM_JOURNAL` says so instead.
 */
export async function journal(ctx: FsContext, team: string, events: readonly TeamEventRecord[]): Promise<void> {
  if (events.length === 0) return;
  try {
    await appendLines(ctx, team, events);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    process.emitWarning(`mailroom could not append to the journal of team "${team}": ${reason}`, { code: 'MAILROOM_JOURNAL' });
  }
}

/**
 * Appends events (throws on failure: for {@link TeamStore.recordObserved}). Synchronous calls: an
 * append is a few hundred bytes into the page cache, made inside the critical section of every
 * transition, where thread-pool round trips would cost more than the writes (docs/decisions.md
 * "Synchronous I/O in critical sections").
 */
export async function appendLines(ctx: FsContext, team: string, events: readonly TeamEventRecord[]): Promise<void> {
  if (events.length === 0) return;
  const path = ctx.layout.journalPath(team);
  const fd = await openForAppend(path);
  try {
    for (const chunk of chunks(events.map(serialise))) writeAll(fd, Buffer.from(chunk, 'utf8'));
  } catch (err) {
    throw fileWriteError(path, err, APPEND_FAILED);
  } finally {
    closeSync(fd);
  }
}

/** Opens the journal with O_APPEND, making its directory on first use. @throws FILE_ACCESS naming the file */
async function openForAppend(path: string): Promise<number> {
  try {
    return openSync(path, 'a', FILE_MODE);
  } catch (err) {
    if (!isErrno(err, 'ENOENT')) throw fileWriteError(path, err, APPEND_FAILED);
  }
  await ensureDir(dirname(path));
  try {
    return openSync(path, 'a', FILE_MODE);
  } catch (err) {
    throw fileWriteError(path, err, APPEND_FAILED);
  }
}

/** What a failed journal append left: earlier lines intact, at most a torn last line that readers skip. */
const APPEND_FAILED = 'Earlier entries are intact; readers skip a torn last line.';

/** One line: `v` first (so a torn line can be resynchronised), then the event's own keys. */
function serialise(event: TeamEventRecord): string {
  const { v, ...rest } = event;
  return `${JSON.stringify({ v, ...rest })}\n`;
}

/** Groups lines into writes of at most {@link CHUNK_BYTES} (a longer line is written alone). */
function chunks(lines: string[]): string[] {
  const out: string[] = [];
  let current = '';
  for (const line of lines) {
    if (current !== '' && Buffer.byteLength(current) + Buffer.byteLength(line) > CHUNK_BYTES) {
      out.push(current);
      current = '';
    }
    current += line;
  }
  if (current !== '') out.push(current);
  return out;
}

function writeAll(fd: number, buffer: Buffer): void {
  let offset = 0;
  while (offset < buffer.length) offset += writeSync(fd, buffer, offset, buffer.length - offset);
}

interface Position {
  ino: string;
  offset: number;
}

function encode(p: Position): Cursor {
  return `j1:${p.ino}:${p.offset}` as Cursor;
}

function decode(cursor: Cursor | undefined): Position | undefined {
  if (cursor === undefined) return undefined;
  const m = /^j1:(\d+):(\d+)$/.exec(cursor);
  return m ? { ino: m[1]!, offset: Number(m[2]) } : undefined;
}

/**
 * The complete lines after `since` (from the start without one), at most `limit` events. A last
 * line without its newline is left for the next read (its writer may still be writing).
 */
export async function readEvents(ctx: FsContext, team: string, options: { since?: Cursor | undefined; limit?: number | undefined } = {}): Promise<EventPage> {
  const since = decode(options.since);
  let handle: FileHandle;
  try {
    handle = await open(ctx.layout.journalPath(team), 'r');
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return { events: [], cursor: encode({ ino: '0', offset: 0 }), reset: since !== undefined && since.offset > 0 };
    throw err;
  }
  try {
    const s = await handle.stat({ bigint: true });
    const ino = s.ino.toString();
    const size = Number(s.size);
    const reset = since !== undefined && (since.offset > size || (since.ino !== ino && since.ino !== '0') || (since.ino === '0' && since.offset > 0));
    const start = since === undefined || reset ? 0 : since.offset;
    const buffer = Buffer.alloc(size - start);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
    const { events, consumed } = parseLines(buffer.subarray(0, bytesRead), options.limit ?? Number.POSITIVE_INFINITY);
    return { events, cursor: encode({ ino, offset: start + consumed }), reset };
  } finally {
    await handle.close();
  }
}

/** Parses whole lines of `buffer` until `limit` events; @returns them and how many bytes were consumed. */
function parseLines(buffer: Buffer, limit: number): { events: TeamEventRecord[]; consumed: number } {
  const events: TeamEventRecord[] = [];
  let pos = 0;
  while (pos < buffer.length && events.length < limit) {
    const end = buffer.indexOf(0x0a, pos);
    if (end < 0) break;
    const event = parseLine(buffer.subarray(pos, end).toString('utf8'));
    if (event) events.push(event);
    pos = end + 1;
  }
  return { events, consumed: pos };
}

/** Parses a line; a line torn by a crashed writer is skipped, keeping a valid event glued after it. */
function parseLine(line: string): TeamEventRecord | undefined {
  if (line === '') return undefined;
  const event = decodeLine(line);
  if (event) return event;
  const resync = line.lastIndexOf(LINE_START);
  return resync > 0 ? decodeLine(line.slice(resync)) : undefined;
}

function decodeLine(line: string): TeamEventRecord | undefined {
  try {
    return parseEvent(JSON.parse(line));
  } catch {
    return undefined;
  }
}

/** True when the team has a journal file (for `listDeletedTeams` and `team delete`). */
export async function hasJournal(ctx: FsContext, team: string): Promise<boolean> {
  return stat(ctx.layout.journalPath(team)).then(
    () => true,
    () => false,
  );
}
