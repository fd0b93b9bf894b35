/**
 * The journal file `<root>/mailroom/journal/<team>.ndjson` (docs/format.md "Journal"): one JSON
 * event per line, appended and never rewritten.
 *
 * Appends take no lock. The file is opened with O_APPEND and each batch is written with one
 * `write()` per chunk of whole lines (≤ 64 KiB, or one longer line): O_APPEND makes every write land
 * at the current end, and Linux serialises writes to one file, so lines from many processes never
 * interleave. Readers still tolerate a torn line (a writer killed mid-write, a network file system):
 * it is skipped, and a valid event glued behind it is recovered.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileWriteError, isErrno } from '../../errors.js';
import { parseJournalLine, type JournalEvent } from '../../protocol/journal.js';
import { FILE_MODE } from '../json-file.js';
import type { JournalRead } from '../store.js';
import { ensureDir, type FsContext } from './context.js';

/** Largest write that batches several lines (bytes). */
const CHUNK_BYTES = 64 * 1024;
/** Every line mailroom writes starts with this (the `v` key is serialised first). */
const LINE_START = '{"v":';

/** Appends events as NDJSON lines at the end of the team's journal, creating it (mode 0600). */
export async function appendJournal(ctx: FsContext, team: string, events: readonly JournalEvent[]): Promise<void> {
  if (events.length === 0) return;
  const path = ctx.layout.journalPath(team);
  await ensureDir(dirname(path));
  const handle = await open(path, 'a', FILE_MODE).catch((err: unknown) => Promise.reject(fileWriteError(path, err, APPEND_FAILED)));
  try {
    for (const chunk of chunks(events.map(serialise))) await writeAll(handle, Buffer.from(chunk, 'utf8'));
  } catch (err) {
    throw fileWriteError(path, err, APPEND_FAILED);
  } finally {
    await handle.close();
  }
}

/** What a failed journal append left: earlier lines intact, at most a torn last line that readers skip. */
const APPEND_FAILED = 'Earlier entries are intact; readers skip a torn last line.';

/** One line: `v` first (so a torn line can be resynchronised), then the event's own keys. */
function serialise(event: JournalEvent): string {
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

async function writeAll(handle: FileHandle, buffer: Buffer): Promise<void> {
  let offset = 0;
  while (offset < buffer.length) {
    const { bytesWritten } = await handle.write(buffer, offset, buffer.length - offset);
    offset += bytesWritten;
  }
}

/**
 * Reads the complete lines after byte offset `since` (default 0). A last line without its newline
 * is left for the next read (its writer may still be writing). When the file is shorter than
 * `since` (replaced or truncated by hand), reading restarts at 0 and `reset` is set.
 */
export async function readJournal(ctx: FsContext, team: string, options: { since?: number } = {}): Promise<JournalRead> {
  let handle: FileHandle;
  try {
    handle = await open(ctx.layout.journalPath(team), 'r');
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return { events: [], cursor: 0, reset: (options.since ?? 0) > 0 };
    throw err;
  }
  try {
    const { size } = await handle.stat();
    const reset = (options.since ?? 0) > size;
    const start = reset ? 0 : (options.since ?? 0);
    const buffer = Buffer.alloc(size - start);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
    const end = buffer.subarray(0, bytesRead).lastIndexOf(0x0a);
    if (end < 0) return { events: [], cursor: start, reset };
    const events = buffer.subarray(0, end).toString('utf8').split('\n').flatMap(parseLine);
    return { events, cursor: start + end + 1, reset };
  } finally {
    await handle.close();
  }
}

/** Parses a line; a line torn by a crashed writer is skipped, keeping a valid event glued after it. */
function parseLine(line: string): JournalEvent[] {
  if (line === '') return [];
  const event = parseJournalLine(line);
  if (event) return [event];
  const resync = line.lastIndexOf(LINE_START);
  const recovered = resync > 0 ? parseJournalLine(line.slice(resync)) : undefined;
  return recovered ? [recovered] : [];
}
