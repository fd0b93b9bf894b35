/**
 * The archiver beside the sends (issue 24 item 4; docs/format.md "Inbox archive"). Claude Code
 * reads its own inboxes (its lead's, its pane teammates') and marks entries read in place; it never
 * archives, so such an inbox only grows, and a send to it rewrites the whole JSON array. A send
 * never archives (it would pay for the history once, at an unpredictable moment); mailroom's own
 * readers archive in the step that marks entries read. For the rest, every live mailroom runtime of
 * the team (an in-process host, a `mailroom agent` process, a `mailroom mcp` server: where the
 * dead-member sweeper runs, docs/decisions.md "Archiving beside sends") looks at the team's
 * inboxes every minute ({@link ARCHIVER_INTERVAL_BEATS}) and moves the read head of those past the store's
 * trigger, each under its inbox lock (`TeamStore.archiveInbox` with `pastTrigger`: on the files
 * store a `stat` per inbox, nothing locked or read below the trigger). `mailroom bridge` runs its
 * own pass on the same schedule, limited to the entries it has synced (src/bridge/archive.ts).
 */
import { teamOf, type TeamOptions } from '../context.js';
import { livenessTiming } from '../members/liveness.js';
import { autoArchiveAllowed } from './inbox-archive.js';

/**
 * How often a runtime looks at its team's inboxes, in beats (12: every 60 s at the default 5 s
 * beat; `$MAILROOM_BEAT_MS` scales it, src/core/members/liveness.ts), ± 20 % so that runtimes
 * started together do not look together.
 */
export const ARCHIVER_INTERVAL_BEATS = 12;

/** One inbox a pass archived. */
export interface ArchivedInbox {
  agent: string;
  /** Entries moved to the archive. */
  moved: number;
}

/**
 * One pass: the read head of every member's inbox that has grown past the store's trigger moves to
 * its archive — the lead's and every teammate's but Claude Code's in-process ones
 * ({@link autoArchiveAllowed}: those mark entries by array index). An inbox that fails (e.g. one
 * that does not parse: never overwritten) is reported to `onError` and the pass goes on.
 * @returns the inboxes it archived
 * @throws TEAM_NOT_FOUND, FILE_CORRUPT (the config)
 */
export async function archiveLargeInboxes(options: TeamOptions & { onError?: (agent: string, err: unknown) => void }): Promise<ArchivedInbox[]> {
  const store = teamOf(options);
  const config = await store.readConfig(options.team);
  const out: ArchivedInbox[] = [];
  for (const m of config.members) {
    if (!autoArchiveAllowed(config, m.name)) continue;
    try {
      const { value } = await store.archiveInbox(options.team, m.name, { pastTrigger: true });
      if (value > 0) out.push({ agent: m.name, moved: value });
    } catch (err) {
      options.onError?.(m.name, err);
    }
  }
  return out;
}

/** A running archiver; `close()` stops it. */
export interface Archiver {
  close(): void;
}

/**
 * Runs {@link archiveLargeInboxes} every `intervalMs` (default {@link ARCHIVER_INTERVAL_BEATS} beats, ± 20 %)
 * until closed, the first pass one interval after the start (the runtime's start-up comes first).
 * Its timer is unref'd: it never keeps the process alive. Errors are logged and the next pass tries again.
 */
export function startArchiver(options: TeamOptions & { log?: (line: string) => void; intervalMs?: number }): Archiver {
  const interval = options.intervalMs ?? ARCHIVER_INTERVAL_BEATS * livenessTiming().beatMs;
  const why = (err: unknown) => (err instanceof Error ? err.message : String(err));
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const schedule = () => {
    if (closed) return;
    timer = setTimeout(pass, interval * (0.8 + 0.4 * Math.random()));
    timer.unref();
  };
  const pass = () => {
    archiveLargeInboxes({ ...options, onError: (agent, err) => options.log?.(`could not archive ${agent}'s inbox (will retry): ${why(err)}`) })
      .then((done) => {
        for (const a of done) options.log?.(`moved ${a.moved} read message(s) of ${a.agent}'s inbox to its archive`);
      })
      .catch((err: unknown) => options.log?.(`could not look at the team's inboxes to archive (will retry): ${why(err)}`))
      .finally(schedule);
  };
  schedule();
  return {
    close: () => {
      closed = true;
      if (timer) clearTimeout(timer);
    },
  };
}
