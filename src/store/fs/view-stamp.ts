/**
 * The filesystem's view stamp ({@link TeamStore.viewStamp}): one `stat` of each file a sender's
 * view is read from — config.json (roster), mailroom-settings.json (policy, signing) and the member
 * records' directory (a record written, replaced by rename or removed changes its mtime and ctime).
 * Every writer of those replaces the file by rename, so a change gives a new inode, size or
 * instant: two equal stamps mean none of them was written in between, save three writes within
 * one tick of the file system's clock that leave a file with its inode number reused and its size
 * unchanged (docs/architecture.md "A send's view of its team"). Synchronous: three system calls.
 *
 * Used by sends only: the append compares it under the first recipient's inbox lock
 * (inbox-append.ts). Takes carry none (Lease.viewStamp stays absent on files), so a teammate's kept
 * view (runtime/delivery/team-view.ts) is not used on files.
 */
import { statStamp } from './change-stamp.js';
import type { FsContext } from './context.js';
import { readConfig } from './teams.js';

/** The stamp now (no check that the team exists). */
export function viewStampNow(ctx: FsContext, team: string): string {
  const l = ctx.layout;
  return `${statStamp(l.configPath(team))}|${statStamp(l.settingsPath(team))}|${statStamp(l.memberRecordDir(team))}`;
}

/** {@link TeamStore.viewStamp} on files. @throws TEAM_NOT_FOUND (no config.json) */
export async function viewStamp(ctx: FsContext, team: string): Promise<string> {
  const stamp = viewStampNow(ctx, team);
  if (stamp.startsWith('-|')) await readConfig(ctx, team); // throws the store's own TEAM_NOT_FOUND
  return stamp;
}
