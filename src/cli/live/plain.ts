/**
 * `mailroom watch` without a terminal (piped, CI, another agent): no screen and no raw mode, one
 * line per event on stdout (plain, or NDJSON with `--json`) until SIGINT/SIGTERM or a closed pipe.
 */
import { followTeam } from '../../core/follow.js';
import type { Stores } from '../../store/selection.js';
import { eventLine, eventRecord, readyLine, readyRecord } from './records.js';
import { terminalSafe } from '../../core/terminal-text.js';
import { untilStopped, writeLine } from './stop.js';

/** Options of {@link runPlainWatch}. */
export interface PlainWatchOptions {
  store: Stores;
  team: string;
  json: boolean;
  record: boolean;
}

/** Prints a ready line, then one line per event. Resolves when stopped. @throws TEAM_NOT_FOUND */
export async function runPlainWatch(o: PlainWatchOptions): Promise<void> {
  const print = (plain: string, json: Record<string, unknown>) => writeLine(o.json ? JSON.stringify(json) : terminalSafe(plain));
  const following = await followTeam({
    store: o.store,
    team: o.team,
    record: o.record,
    onUpdate: (update) => {
      const now = Date.now();
      for (const e of update.events) print(eventLine(now, e), eventRecord(o.team, now, e));
    },
    onError: (err) => process.stderr.write(`mailroom watch: ${err instanceof Error ? err.message : String(err)}\n`),
  });
  const now = Date.now();
  print(readyLine(following.initial, now), readyRecord(following.initial, now));
  await untilStopped();
  await following.close();
}
