/**
 * `mailroom log --actor <member>`: who did what, when — every journal event whose actor is the
 * member (a message's sender when the event names no actor), of every kind, refused attempts
 * (`refused` events) included. Text lines, or with `--json` one event per line as stored.
 */
import { describeJournalEvent } from '../../core/live/watch-events.js';
import { describeText } from '../../core/live/describe.js';
import { terminalSafe } from '../../core/text/terminal-text.js';
import type { TeamEventRecord } from '../../protocol/events.js';
import { parseMessageText } from '../../protocol/structured.js';
import type { Stores } from '../../store/selection.js';
import type { Cursor } from '../../store/team-store.js';
import { writeLine } from './stop.js';
import { requireTeamOrHistory } from './team-or-history.js';

/** Who an event is by: its actor, else a message's sender. */
export function actorOf(e: TeamEventRecord): string | undefined {
  return e.actor ?? (e.kind === 'message' ? e.entry.from : undefined);
}

/** Prints the member's events, oldest first (the last `tail` with `tail`). */
export async function runActorLog(o: { store: Stores; team: string; actor: string; json: boolean; tail?: number | undefined }): Promise<void> {
  const mine: TeamEventRecord[] = [];
  let since: Cursor | undefined;
  for (;;) {
    const page = await o.store.team.readEvents(o.team, { since });
    if (since === undefined && page.events.length === 0) await requireTeamOrHistory(o.store, o.team);
    mine.push(...page.events.filter((e) => actorOf(e) === o.actor));
    if (page.events.length === 0 || page.cursor === since) break;
    since = page.cursor;
  }
  const shown = o.tail === undefined ? mine : mine.slice(Math.max(0, mine.length - o.tail));
  const describe = (text: string) => describeText(parseMessageText(text));
  for (const e of shown) writeLine(o.json ? JSON.stringify(e) : terminalSafe(describeJournalEvent(e, describe)));
}
