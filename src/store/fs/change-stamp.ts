/**
 * The safety-net fingerprint of one member's view of a team on the filesystem
 * ({@link TeamStore.changeStamp}): one `stat` per file the member's runtime would otherwise read and
 * parse on every tick — config.json, its inbox, the task directory (a task file created, removed or
 * replaced by rename changes it) and `.highwatermark`. Synchronous `stat` calls: four system calls,
 * no thread-pool round trips. A missing file stamps as `-`.
 *
 * An idle `mailroom agent` takes this stamp every tick (2 s) for as long as it runs (issue 24
 * item 3), so the four paths are computed once per layout, team and member (not joined and
 * normalised on every tick), and a missing file — an idle member's inbox before its first message,
 * `.highwatermark` before the first task — is asked with `throwIfNoEntry: false`, so no ENOENT error
 * (and stack trace) is built per tick.
 */
import { statSync } from 'node:fs';
import type { TeamStore } from '../team-store.js';
import type { FsContext } from './context.js';
import type { Layout } from './paths.js';

/** One path's stamp: inode, size, mtime and ctime (ns); `-` when missing. */
export function statStamp(path: string): string {
  try {
    const s = statSync(path, { bigint: true, throwIfNoEntry: false });
    return s ? `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}` : '-';
  } catch {
    return '-';
  }
}

/** The stamped paths by layout, then by `team` NUL `member` (a layout lives as long as its store). */
const pathsByLayout = new WeakMap<Layout, Map<string, readonly string[]>>();

function stampedPaths(layout: Layout, team: string, member: string): readonly string[] {
  let byMember = pathsByLayout.get(layout);
  if (!byMember) pathsByLayout.set(layout, (byMember = new Map()));
  const key = `${team}\0${member}`;
  let paths = byMember.get(key);
  if (!paths) byMember.set(key, (paths = [layout.configPath(team), layout.inboxPath(team, member), layout.taskDir(team), layout.highWatermarkPath(team)]));
  return paths;
}

/** See {@link TeamStore.changeStamp}. */
export function changeStamp(ctx: FsContext, team: string, member: string): string {
  return stampedPaths(ctx.layout, team, member).map(statStamp).join('|');
}
