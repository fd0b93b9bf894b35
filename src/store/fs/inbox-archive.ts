/**
 * The inbox archive: read entries moved out of `inboxes/<agent>.json` so that a send does not
 * rewrite the whole read history (../shared/cases/03). One JSON entry per line (NDJSON) in
 * `<root>/mailroom/archive/<inboxTeam>/<agent>.ndjson`, appended under the inbox's own lock,
 * never rewritten. It lives outside `teams/` because Claude Code reads, globs and deletes there.
 *
 * Crash safety: entries are appended (and fsynced) *before* the live file is rewritten without
 * them, so a crash in between leaves an entry in both places, never in neither; readers drop the
 * duplicate (core/messages/inbox-read.ts). A writer killed mid-append leaves a torn last line: the next
 * append starts on a fresh line, and readers skip lines that do not parse.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { MailroomError, fileWriteError, isErrno } from '../../errors.js';
import { isInboxEntry, type InboxEntry } from '../../protocol/inbox.js';
import type { HeldLock } from './lock.js';
import { FILE_MODE } from './modes.js';
import { testFreeze } from '../../test-freeze.js';
import { ensureDir, type FsContext } from './context.js';

/** What an archive holds: its valid entries in archive order, and how many lines did not parse. */
export interface ArchiveRead {
  entries: InboxEntry[];
  badLines: number;
}

/** Appends entries, each as its JSON text (one line, no newline), to the agent's archive, under the inbox's `lock` (checked first). @throws FILE_ACCESS, FILE_CORRUPT (the archive is not a regular file) */
export async function appendToArchive(ctx: FsContext, team: string, agent: string, lines: readonly string[], lock: HeldLock): Promise<void> {
  if (lines.length === 0) return;
  const path = ctx.layout.inboxArchivePath(team, agent);
  await ensureDir(dirname(path));
  await lock.assertHeld(`archiving to ${path}`);
  const failed = 'Earlier entries are intact, and the inbox was not changed.';
  const handle = await open(path, 'a+', FILE_MODE).catch((err: unknown) => Promise.reject(fileWriteError(path, err, failed)));
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw notRegular(path);
    const { size } = stats;
    const last = Buffer.alloc(1);
    if (size > 0) await handle.read(last, 0, 1, size - 1);
    const lead = size > 0 && last.toString() !== '\n' ? '\n' : '';
    await handle.appendFile(`${lead}${lines.join('\n')}\n`, 'utf8');
    await handle.sync();
    testFreeze('archive-appended', path);
  } catch (err) {
    throw err instanceof MailroomError ? err : fileWriteError(path, err, failed);
  } finally {
    await handle.close();
  }
}

/** FILE_CORRUPT for an archive that is a FIFO, socket, device or directory: writing it could block forever, reading it never end. */
function notRegular(path: string): MailroomError {
  return new MailroomError('FILE_CORRUPT', `${path} is not a regular file. mailroom will not read or append to it (a FIFO would block, a device never end). Move it aside, then retry; the inbox was not changed.`, { details: { path } });
}

/** Reads the agent's archive; a missing archive is empty. @throws FILE_CORRUPT (not a regular file: a FIFO, a device) */
export async function readArchive(ctx: FsContext, team: string, agent: string): Promise<ArchiveRead> {
  const path = ctx.layout.inboxArchivePath(team, agent);
  let text: string;
  try {
    // Non-blocking, so that a FIFO does not wait for a writer; only a regular file is read.
    const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      if (!(await handle.stat()).isFile()) throw notRegular(path);
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return { entries: [], badLines: 0 };
    throw err;
  }
  const entries: InboxEntry[] = [];
  let badLines = 0;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const entry = parseLine(line);
    if (entry) entries.push(entry);
    else badLines++;
  }
  return { entries, badLines };
}

function parseLine(line: string): InboxEntry | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isInboxEntry(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
