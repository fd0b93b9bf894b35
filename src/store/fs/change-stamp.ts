/**
 * The safety-net fingerprint of one member's view of a team on the filesystem
 * ({@link TeamStore.changeStamp}): one `stat` per file the member's runtime would otherwise read and
 * parse on every tick — config.json, its inbox, the task directory (a task file created, removed or
 * replaced by rename changes it) and `.highwatermark`. Synchronous `stat` calls: four system calls,
 * no thread-pool round trips. A missing file stamps as `-`.
 */
import { statSync } from 'node:fs';
import type { TeamStore } from '../team-store.js';
import type { FsContext } from './context.js';

function stampOf(path: string): string {
  try {
    const s = statSync(path, { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return '-';
  }
}

/** See {@link TeamStore.changeStamp}. */
export function changeStamp(ctx: FsContext, team: string, member: string): string {
  const { layout } = ctx;
  return [layout.configPath(team), layout.inboxPath(team, member), layout.taskDir(team), layout.highWatermarkPath(team)].map(stampOf).join('|');
}
