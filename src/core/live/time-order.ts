/**
 * Journal events in the order they happened (issue 23). The journal is in the order events were
 * recorded, and an event can be recorded after later ones: a message that Claude Code (or any
 * writer outside mailroom) put straight into an inbox is journalled when mailroom next looks, with
 * the message's own timestamp, which is the time `log` prints. `mailroom log` prints each batch it
 * reads sorted by that time, stably
 * (events with the same time keep their journal order).
 */
import type { TeamEventRecord } from '../../protocol/events.js';

/** When `event` happened, as `log` prints it: a message's own timestamp, else the time it was recorded. */
export function eventTime(event: TeamEventRecord): string {
  return event.kind === 'message' ? event.entry.timestamp : event.at;
}

/** `events` sorted by {@link eventTime} (stable; an unparseable time keeps its place after the one before it). */
export function inTimeOrder<E extends TeamEventRecord>(events: readonly E[]): E[] {
  let last = Number.NEGATIVE_INFINITY;
  const keyed = events.map((event, index) => {
    const ms = Date.parse(eventTime(event));
    if (Number.isFinite(ms)) last = ms;
    return { event, index, ms: Number.isFinite(ms) ? ms : last };
  });
  keyed.sort((a, b) => a.ms - b.ms || a.index - b.index);
  return keyed.map((k) => k.event);
}
