/**
 * Member transcripts on this machine (`<root>/mailroom/transcripts/<team>/<member>.ndjson`): one
 * JSON line per conversation turn, appended; bounded by rewriting the file with its newest whole
 * lines once it passes the bound (docs/runtime.md "Transcripts"). One writer per member: the
 * runtime that holds the member's reader claim.
 */
import { appendFile, readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fromSystemError, isErrno } from '../../errors.js';
import { FILE_MODE } from './modes.js';
import { writeFileAtomic } from './atomic-write.js';
import { ensureDir, type FsContext } from './context.js';

/** Appends `lines`, then compacts the file to its newest lines (≤ `maxBytes / 2`) once it exceeds `maxBytes`. */
export async function appendTranscript(ctx: FsContext, team: string, member: string, lines: readonly string[], maxBytes: number): Promise<void> {
  if (lines.length === 0) return;
  const path = ctx.layout.transcriptPath(team, member);
  try {
    await ensureDir(dirname(path));
    await appendFile(path, lines.map((l) => `${l}\n`).join(''), { mode: FILE_MODE });
    if ((await stat(path)).size <= maxBytes) return;
    const text = await readFile(path);
    let tail = text.subarray(Math.max(0, text.length - Math.floor(maxBytes / 2)));
    const firstBreak = tail.indexOf(0x0a);
    // Keep whole lines only: the cut lands inside a line unless it happens to follow a newline.
    if (text.length - tail.length > 0 && text[text.length - tail.length - 1] !== 0x0a) tail = firstBreak < 0 ? Buffer.alloc(0) : tail.subarray(firstBreak + 1);
    await writeFileAtomic(path, tail.toString('utf8'));
  } catch (err) {
    throw fromSystemError(err);
  }
}

/** The transcript's text, `""` when there is none. */
export async function readTranscript(ctx: FsContext, team: string, member: string): Promise<string> {
  try {
    return await readFile(ctx.layout.transcriptPath(team, member), 'utf8');
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return '';
    throw fromSystemError(err);
  }
}
