/**
 * The bridge's archiver (docs/bridge.md "Archiving"): the bridge is a live mailroom runtime of the
 * team like an in-process host, a `mailroom agent` or a `mailroom mcp` server
 * (core/messages/inbox-archiver.ts), so the Claude Code inboxes it writes into move their read
 * history to the archive (`<root>/mailroom/archive/`, outside `teams/`) and a copy into them stops
 * costing a rewrite of the whole history. Unlike the other runtimes' archiver, it moves only
 * entries the bridge has synced and saved: the read head stops, under the inbox's lock, at the
 * first entry not in the inbox's synced set (`ArchiveOptions.onlyKeys`), so a message Claude Code
 * wrote and read before the bridge copied it (the shared store unreachable, or the bridge behind)
 * stays in the inbox until it is copied, and a bridge killed after archiving never copies an
 * archived message back (its id is in the saved set).
 */
import { autoArchiveAllowed } from '../core/messages/inbox-archive.js';
import { ARCHIVER_INTERVAL_BEATS } from '../core/messages/inbox-archiver.js';
import { livenessTiming } from '../core/members/liveness.js';
import { entryKey } from '../domain/entries.js';
import type { TeamConfig } from '../protocol/config.js';
import type { InboxEntry } from '../protocol/inbox.js';
import type { TeamStore } from '../store/team-store.js';

/**
 * Milliseconds until the bridge's next archiver pass: {@link ARCHIVER_INTERVAL_BEATS} beats (60 s at
 * the default 5 s beat; `$MAILROOM_BEAT_MS` scales it) ± 20 %, the other runtimes' schedule.
 * `$MAILROOM_BRIDGE_ARCHIVE=0` turns the bridge's archiver off (`undefined`): for measuring the cost
 * of an inbox not yet archived (bench 90), never needed in use.
 * @throws INVALID_ARGUMENT when `$MAILROOM_BEAT_MS` is not valid (src/core/members/liveness.ts)
 */
export function archiverDelayMs(env: NodeJS.ProcessEnv = process.env): number | undefined {
  if (env.MAILROOM_BRIDGE_ARCHIVE === '0') return undefined;
  return ARCHIVER_INTERVAL_BEATS * livenessTiming(env).beatMs * (0.8 + 0.4 * Math.random());
}

/**
 * One pass over one local inbox: moves its read head to the archive when the file has grown past
 * the files store's trigger (64 KiB; a `stat`, nothing locked below it), but only entries whose
 * shared id is in `synced` (the inbox's synced set, already saved). Skips a Claude Code in-process
 * teammate's inbox (`autoArchiveAllowed`: 2.1.109 marks those by array index).
 * @param copy the bridge's copy of the local inbox by shared id (its InboxMirror)
 * @returns how many entries moved (0: nothing written)
 * @throws what `TeamStore.archiveInbox` throws (FILE_CORRUPT, LOCK_TIMEOUT, FILE_ACCESS)
 */
export async function archiveSynced(local: TeamStore, team: string, config: TeamConfig, member: string, copy: ReadonlyMap<string, InboxEntry>, synced: ReadonlySet<string>): Promise<number> {
  if (!autoArchiveAllowed(config, member)) return 0;
  const onlyKeys = new Set<string>();
  for (const [id, e] of copy) if (synced.has(id)) onlyKeys.add(entryKey(e));
  if (onlyKeys.size === 0) return 0;
  return (await local.archiveInbox(team, member, { pastTrigger: true, onlyKeys, actor: 'mailroom-bridge' })).value;
}
