/**
 * Claude Code's two path sanitisers (reference §1): how a team or member name becomes one path
 * component of the filesystem store. The name rules themselves are in src/domain/names.ts.
 * A valid new name (domain NAME_PATTERN) passes both unchanged, so it is exactly one directory
 * and one inbox file; names Claude Code created with other characters are still read through them.
 */

import { MailroomError } from '../../errors.js';

/**
 * Longest path component a team or member name may become (UTF-8 bytes). File systems hold 255
 * bytes per file name, and the store adds suffixes to a name's component (`.json.lock`,
 * `.json.corrupt-<stamp>`, temp-file suffixes), so a longer name could be written by one step
 * and fail in the next. Claude Code's own limit is the same 255 bytes (issue 9 item 6).
 */
export const MAX_NAME_BYTES = 200;

/**
 * `part` (the sanitised `name`) when it fits in {@link MAX_NAME_BYTES}.
 * @throws NAME_TOO_LONG naming the kind (`team`, `member`), the length and the limit
 */
export function fittingPart(kind: 'team' | 'member', name: string, part: string): string {
  const bytes = Buffer.byteLength(part, 'utf8');
  if (bytes <= MAX_NAME_BYTES) return part;
  const shown = name.length > 40 ? `${name.slice(0, 40)}…` : name;
  throw new MailroomError(
    'NAME_TOO_LONG',
    `The ${kind} name "${shown}" is ${name.length} characters (${bytes} bytes as a file name); names of at most ${MAX_NAME_BYTES} bytes fit the store's files. ${kind === 'team' ? 'Use a shorter team name.' : 'Rename the member in config.json (Claude Code cannot create its inbox either), or remove it.'}`,
    { details: { kind, name, bytes, limit: MAX_NAME_BYTES } },
  );
}

/** Sanitiser for team directories (config.json): every char outside `[a-zA-Z0-9]` → `-`, then lowercase. */
export function teamDirName(name: string): string {
  return name.replace(/[^a-zA-Z0-9]/g, '-').toLowerCase();
}

/** Sanitiser for inbox dirs, inbox files, task list ids: every char outside `[a-zA-Z0-9_-]` → `-`, case kept. */
export function pathPart(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '-');
}

/**
 * A team directory Claude Code 2.1.332 is removing: at the end of a session it renames
 * `teams/<teamDir>` to `teams/<teamDir>.deleted-<uuid>` and then removes that (2.1.332 snapshot
 * 5-cleanup-tombstone). The client itself recognises such tombstones by `\.deleted-<uuid>$`; so
 * does this pattern. No team name can produce one: the team-directory sanitiser turns `.` into `-`.
 */
export const TOMBSTONE_PATTERN = /\.deleted-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The team directory a tombstone directory name stands for (`session-0e1bac49.deleted-eb15…` →
 * `session-0e1bac49`), or undefined when `dirName` is no tombstone ({@link TOMBSTONE_PATTERN}).
 */
export function tombstoneOf(dirName: string): string | undefined {
  const m = TOMBSTONE_PATTERN.exec(dirName);
  return m ? dirName.slice(0, m.index) : undefined;
}

/** Task list id of an explicit team: its name through the lowercasing sanitiser (reference §1). */
export function taskListId(team: string): string {
  return pathPart(teamDirName(team));
}
