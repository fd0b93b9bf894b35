/**
 * Team events as journal stream entries (docs/format.md "Redis store", `events`). A script
 * writes each entry as fields: `h`, the envelope JSON the caller built (`v`, `team`, `at`,
 * `source`, `actor`), plus the parts only the script knows (`kind`, `action`, `to`, `key`,
 * `state`, `lease`, `name`, `agentId`, `changed`; `entry` for a message; `task`/`st`/`ow`/`bk`/`bb`
 * for a task as it was at that moment). An observed event (recordObserved) is its whole JSON in `h`.
 * One decoder serves both the events a transition returns and those readEvents reads, so they
 * are the same objects.
 */
import { EVENT_VERSION, parseEvent, type TeamEventRecord } from '../../protocol/events.js';
import { assembleTask } from './codec.js';

/** Who acts and when, as every event carries it. */
export interface Envelope {
  team: string;
  /** Epoch ms. */
  now: number;
  actor?: string | undefined;
}

/** The envelope's fields as an event carries them (`v`, `team`, `at`, `source`, `actor`). */
export function envelopeFields(e: Envelope): Record<string, unknown> {
  const out: Record<string, unknown> = { v: EVENT_VERSION, team: e.team, at: new Date(e.now).toISOString(), source: 'mailroom' };
  if (e.actor !== undefined) out.actor = e.actor;
  return out;
}

/** The envelope JSON a script puts in field `h`. */
export function envelope(e: Envelope): string {
  return JSON.stringify(envelopeFields(e));
}

/** A stream entry as scripts and XRANGE return it: its id, then field, value, field, value… */
export type StreamRow = readonly string[];

/**
 * The event of one stream entry, or undefined when it is not a valid event of a supported version.
 * `own`: the row is one a script of this build just wrote and returned (a transition's reply), whose
 * fields it built from this build's envelope and documents, so the schema check is skipped for it
 * (it cost more client CPU per append than the rest of the reply's decoding, issue 24); rows read
 * from the journal are always checked.
 */
export function decodeRow(row: StreamRow, own = false): TeamEventRecord | undefined {
  const f = new Map<string, string>();
  for (let i = 1; i + 1 < row.length; i += 2) f.set(row[i]!, row[i + 1]!);
  let event: Record<string, unknown>;
  try {
    event = JSON.parse(f.get('h') ?? 'null') as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const kind = f.get('kind');
  if (kind === undefined) return parseEvent(event);
  if (typeof event !== 'object' || event === null) return undefined;
  event.kind = kind;
  for (const name of ['action', 'to', 'key', 'state', 'lease', 'name', 'agentId'] as const) {
    const value = f.get(name);
    if (value !== undefined) event[name] = value;
  }
  const changed = f.get('changed');
  if (changed !== undefined) event.changed = changed === '' ? [] : changed.split(',');
  const entry = f.get('entry');
  if (entry !== undefined) event.entry = JSON.parse(entry) as unknown;
  const task = f.get('task');
  if (task !== undefined) event.task = assembleTask([JSON.parse(task).id, task, f.get('st'), f.get('ow') ?? null, f.get('bk'), f.get('bb'), f.get('fe') ?? null]);
  return own && event.v === EVENT_VERSION ? (event as unknown as TeamEventRecord) : parseEvent(event);
}

/** The events of rows (invalid ones skipped); `own` as for {@link decodeRow}. */
export function decodeRows(rows: readonly StreamRow[], own = false): TeamEventRecord[] {
  return rows.flatMap((row) => decodeRow(row, own) ?? []);
}
