/**
 * The dashboard's journal timeline and transcripts: the team's journal (docs/journal.md) read
 * whole, filtered by actor, kind, member and task, each event one line as `mailroom log` prints
 * it; an LLM member's transcript as this machine's host store keeps it.
 */
import { describeJournalEvent } from '../core/live/watch-events.js';
import { describeText } from '../core/live/describe.js';
import { parseMessageText } from '../protocol/structured.js';
import type { TeamEventRecord } from '../protocol/events.js';
import type { Cursor } from '../store/team-store.js';
import type { Stores } from '../store/selection.js';
import type { WireEvent, WireTurn } from './wire.js';

/** Filters of {@link readTimeline}; each unset one matches everything. */
export interface TimelineFilter {
  /** Who did it (the event's actor, else a message's sender). */
  actor?: string | undefined;
  /** Event kind: `message`, `delivery`, `task`, `member`, `team`, `refused`, `settings`, `lease`. */
  kind?: string | undefined;
  /** A member it concerns (sender, recipient, the member joining or leaving, a task's owner). */
  member?: string | undefined;
  /** A task id. */
  task?: string | undefined;
  /** At most this many, the newest (default 1 000). */
  limit?: number | undefined;
}

/** Who an event is by: its actor, else a message's sender (as `mailroom log --actor`). */
export function actorOf(e: TeamEventRecord): string | undefined {
  return e.actor ?? (e.kind === 'message' ? e.entry.from : undefined);
}

function membersOf(e: TeamEventRecord): string[] {
  switch (e.kind) {
    case 'message': return [e.entry.from, e.to];
    case 'delivery': return [e.to];
    case 'member': return [e.name];
    case 'task': return e.task.owner ? [e.task.owner] : [];
    case 'refused': return e.target ? [e.target] : [];
    case 'lease': return [e.holder];
    default: return [];
  }
}

function taskOf(e: TeamEventRecord): string | undefined {
  if (e.kind === 'task') return e.task.id;
  if (e.kind === 'refused' && e.target?.startsWith('#')) return e.target.slice(1);
  return undefined;
}

/** Whether `e` passes `f`. Pure. */
export function matches(e: TeamEventRecord, f: TimelineFilter): boolean {
  if (f.kind && e.kind !== f.kind) return false;
  if (f.actor && actorOf(e) !== f.actor) return false;
  if (f.member && !membersOf(e).includes(f.member) && actorOf(e) !== f.member) return false;
  if (f.task && taskOf(e) !== f.task) return false;
  return true;
}

/** The journal's events that pass `filter`, oldest first. @throws TEAM_NOT_FOUND, STORE_UNAVAILABLE */
export async function readTimeline(stores: Stores, team: string, filter: TimelineFilter): Promise<WireEvent[]> {
  const limit = Math.max(1, Math.min(filter.limit ?? 1000, 10_000));
  const describe = (text: string) => describeText(parseMessageText(text));
  const kept: TeamEventRecord[] = [];
  let since: Cursor | undefined;
  for (;;) {
    const page = await stores.team.readEvents(team, { since });
    for (const e of page.events) if (matches(e, filter)) kept.push(e);
    if (kept.length > limit * 2) kept.splice(0, kept.length - limit);
    if (page.events.length === 0 || page.cursor === since) break;
    since = page.cursor;
  }
  return kept.slice(-limit).map((e, seq) => ({
    seq,
    at: e.kind === 'message' ? e.entry.timestamp : e.at,
    kind: e.kind,
    actor: actorOf(e),
    member: membersOf(e)[0],
    task: taskOf(e),
    line: describeJournalEvent(e, describe),
  }));
}

/** The member's transcript turns this machine keeps (none for a member that runs elsewhere or keeps none). */
export async function readTranscript(stores: Stores, team: string, member: string): Promise<WireTurn[]> {
  const config = await stores.team.readConfig(team);
  const m = config.members.find((x) => x.name === member);
  const { loadTurns } = await import('../runtime/transcript.js');
  const turns = await loadTurns({ host: stores.host, team, name: member, joinedAt: m?.joinedAt });
  return turns.map((t) => ({ role: t.role, text: t.content.map((b) => ('text' in b && typeof b.text === 'string' ? b.text : JSON.stringify(b))).join('\n') }));
}
