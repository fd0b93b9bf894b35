/**
 * `mailroom log`: prints the team's journal, deduplicated, one line per event (NDJSON with
 * `--json`, each line a journal event as stored): messages, task changes, members joining and
 * leaving (delivery and team-lifecycle events stay in the journal only, docs/journal.md). Unless
 * `--no-record`, it first records what is in the store and not yet journaled, as `watch` does, so
 * the history is complete up to now; a team whose config is gone (a finished Claude Code session)
 * still has its journal printed. `--follow` keeps printing as events are recorded, by anyone, until
 * stopped: it reads the journal when the team's feed hints that it grew.
 */
import { isMailroomError } from '../../errors.js';
import { describeJournalEvent } from '../../core/events.js';
import { describeText } from '../../core/describe.js';
import { terminalSafe } from '../../core/terminal-text.js';
import { followTeam, type Following } from '../../core/follow.js';
import { JournalReader, type ShownEvent } from '../../core/journal-reader.js';
import { TeamTracker } from '../../core/tracker.js';
import { parseMessageText } from '../../protocol/structured.js';
import type { Task } from '../../protocol/task.js';
import type { Stores } from '../../store/selection.js';
import { untilStopped, writeLine } from './stop.js';

/** Options of {@link runLog}. */
export interface LogOptions {
  store: Stores;
  team: string;
  json: boolean;
  follow: boolean;
  record: boolean;
  /** Print only the last N events of the history (follow still prints everything new). */
  tail?: number | undefined;
}

/** Prints the journal; with `follow`, resolves only when stopped. */
export async function runLog(o: LogOptions): Promise<void> {
  if (o.record && !o.follow) await recordOnce(o);
  let following: Following | undefined;
  if (o.follow) following = await followOrSkip(o);
  const reader = new JournalReader(o.store.team, o.team);
  const printer = makePrinter(o.json);
  const history = await reader.next();
  const first = o.tail === undefined ? 0 : Math.max(0, history.length - o.tail);
  history.forEach((e, i) => {
    const line = printer.line(e);
    if (i >= first) writeLine(line);
  });
  if (!o.follow) return;
  let reading: Promise<void> = Promise.resolve();
  const pull = () => {
    reading = reading.then(() => reader.next()).then((events) => events.forEach((e) => writeLine(printer.line(e))), () => undefined);
  };
  // A team whose config is gone has no feed to follow: its journal is re-read every second.
  const stop = following ? following.feed.subscribe((h) => (h.kind === 'events' || h.kind === 'tick') && pull()) : undefined;
  const timer = following ? undefined : setInterval(pull, 1000);
  await untilStopped();
  stop?.();
  clearInterval(timer);
  await reading;
  await following?.close();
}

/** Records what is on disk and missing from the journal; nothing to do when the team is gone. */
async function recordOnce(o: LogOptions): Promise<void> {
  try {
    await new TeamTracker(o.store.team, o.team, { record: true }).load();
  } catch (err) {
    if (!isMailroomError(err, 'TEAM_NOT_FOUND')) throw err;
  }
}

async function followOrSkip(o: LogOptions): Promise<Following | undefined> {
  try {
    return await followTeam({ store: o.store, team: o.team, record: o.record, onUpdate: () => undefined });
  } catch (err) {
    if (!isMailroomError(err, 'TEAM_NOT_FOUND')) throw err;
    return undefined;
  }
}

/** Formats events in journal order; remembers each task's last state so an update prints what changed. */
function makePrinter(json: boolean): { line(e: ShownEvent): string } {
  const tasks = new Map<string, Task>();
  const describe = (text: string) => describeText(parseMessageText(text));
  return {
    line(e: ShownEvent): string {
      const previous = e.kind === 'task' ? tasks.get(e.task.id) : undefined;
      if (e.kind === 'task') tasks.set(e.task.id, e.task);
      return json ? JSON.stringify(e) : terminalSafe(describeJournalEvent(e, describe, previous));
    },
  };
}
