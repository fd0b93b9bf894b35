/**
 * Claude Code's two path sanitisers (reference §1): how a team or member name becomes one path
 * component of the filesystem store. The name rules themselves are in src/domain/names.ts.
 * A valid new name (domain NAME_PATTERN) passes both unchanged, so it is exactly one directory
 * and one inbox file; names Claude Code created with other characters are still read through them.
 */

/** Sanitiser for team directories (config.json): every char outside `[a-zA-Z0-9]` → `-`, then lowercase. */
export function teamDirName(name: string): string {
  return name.replace(/[^a-zA-Z0-9]/g, '-').toLowerCase();
}

/** Sanitiser for inbox dirs, inbox files, task list ids: every char outside `[a-zA-Z0-9_-]` → `-`, case kept. */
export function pathPart(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '-');
}

/** Task list id of an explicit team: its name through the lowercasing sanitiser (reference §1). */
export function taskListId(team: string): string {
  return pathPart(teamDirName(team));
}
