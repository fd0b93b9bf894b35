/**
 * `mailroom log`: prints the team's journal, deduplicated: every change (messages, deliveries,
 * task changes including metadata-only updates, members joining, leaving and changing, the team's
 * lifecycle). Runs of routine events (deliveries, metadata-only updates of one task, updates of one
 * member) are collapsed into one line that says how many events it stands for, unless `--expand`;
 * nothing is dropped (docs/journal.md). NDJSON with `--json`: each line a journal event as stored,
 * never collapsed. Unless
 * `--no-record`, it first records what is in the store and not yet journaled, as `watch` does, so
 * the history is complete up to now; a team whose config is gone (a finished Claude Code session)
 * still has its journal printed. `--follow` keeps printing as events are recorded, by anyone, until
 * stopped: it reads the journal when the team's feed hints that it grew. Each batch read is printed
 * in time order (../../core/live/time-order.ts): an event journalled late, such as a message
 * written straight into an inbox, takes its place by its time in the history; while following,
 * one that arrives after later lines were printed is printed when it arrives.
 */
import { isMailroomError } from '../../errors.js';
import { JournalPrinter } from '../../core/live/journal-lines.js';
import { describeText } from '../../core/live/describe.js';
import { terminalSafe } from '../../core/text/terminal-text.js';
import { followTeam, type Following } from '../../core/live/follow.js';
import { JournalReader, type ShownEvent } from '../../core/live/journal-reader.js';
import { TeamTracker } from '../../core/live/tracker.js';
import { inTimeOrder } from '../../core/live/time-order.js';
import { parseMessageText } from '../../protocol/structured.js';
import type { Stores } from '../../store/selection.js';
import { untilStopped, writeLine } from './stop.js';
import { writeStderr } from '../output.js';
import { requireTeamOrHistory } from './team-or-history.js';

/** Options of {@link runLog}. */
export interface LogOptions {
  store: Stores;
  team: string;
  json: boolean;
  follow: boolean;
  record: boolean;
  /** Print only the last N events of the history (follow still prints everything new). */
  tail?: number | undefined;
  /** One line per event: no collapsing of routine runs. */
  expand?: boolean | undefined;
}

/** Prints the journal; with `follow`, resolves only when stopped. */
export async function runLog(o: LogOptions): Promise<void> {
  if (o.record && !o.follow) await recordOnce(o);
  // With --follow, listening for SIGINT/SIGTERM before the first line (a clean exit, not death by signal).
  const stopped = o.follow ? untilStopped() : undefined;
  let following: Following | undefined;
  if (o.follow) following = await followOrSkip(o);
  const reader = new JournalReader(o.store.team, o.team);
  const printer = makePrinter(o.json, o.expand === true);
  const first = await reader.next();
  // No journal and no team: a mistyped name, refused as any verb refuses it (a team whose config is gone keeps its journal).
  if (first.length === 0 && !following) await requireTeamOrHistory(o.store, o.team);
  const history = printer.lines(inTimeOrder(first));
  // --tail counts events: the last N events' lines (a collapsed line is kept whole).
  let events = 0;
  let from = history.length;
  while (o.tail !== undefined && from > 0 && events < o.tail) events += history[--from]!.events;
  history.slice(o.tail === undefined ? 0 : from).forEach((l) => writeLine(l.text));
  if (!o.follow) return;
  let reading: Promise<void> = Promise.resolve();
  const pull = () => {
    reading = reading.then(() => reader.next()).then((events) => printer.lines(inTimeOrder(events)).forEach((l) => writeLine(l.text)), () => undefined);
  };
  // A team whose config is gone has no feed to follow: its journal is re-read every second.
  const stop = following ? following.feed.subscribe((h) => (h.kind === 'events' || h.kind === 'tick') && pull()) : undefined;
  const timer = following ? undefined : setInterval(pull, 1000);
  await stopped;
  stop?.();
  clearInterval(timer);
  await reading;
  await following?.close();
}

/** Records what is on disk and missing from the journal; nothing to do when the team is gone, or when its config cannot be read (said on stderr). */
async function recordOnce(o: LogOptions): Promise<void> {
  try {
    await new TeamTracker(o.store.team, o.team, { record: true }).load();
  } catch (err) {
    if (!skipWithWarning(err)) throw err;
  }
}

/** Follows the team's feed; undefined (the journal is then re-read every second) when the team is gone or its config cannot be read. */
async function followOrSkip(o: LogOptions): Promise<Following | undefined> {
  try {
    return await followTeam({ store: o.store, team: o.team, record: o.record, onUpdate: () => undefined });
  } catch (err) {
    if (!skipWithWarning(err)) throw err;
    return undefined;
  }
}

/**
 * True for what stops recording but not printing: a team that is gone (its journal remains), or a
 * config.json that cannot be read, which it says on stderr (the journal needs no config).
 */
function skipWithWarning(err: unknown): boolean {
  if (isMailroomError(err, 'TEAM_NOT_FOUND')) return true;
  if (!isMailroomError(err, 'FILE_CORRUPT')) return false;
  writeStderr(`mailroom: warning: ${terminalSafe(err.message)} The journal is printed without recording what is on disk.\n`);
  return true;
}

/** Lines for events in journal order: NDJSON as stored with `json`, else the journal printer's text. */
function makePrinter(json: boolean, expand: boolean): { lines(events: readonly ShownEvent[]): Array<{ text: string; events: number }> } {
  const printer = new JournalPrinter((text) => describeText(parseMessageText(text)), expand);
  return {
    lines: (events) =>
      json ? events.map((e) => ({ text: JSON.stringify(e), events: 1 })) : printer.lines(events).map((l) => ({ text: terminalSafe(l.text), events: l.events.length })),
  };
}
