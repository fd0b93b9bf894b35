/**
 * The journal on Redis: one capped stream per team generation (XADD MAXLEN ~ 100 000, written
 * by the transition scripts themselves). A cursor is `<stream id>@<epoch>`: the id of the last
 * entry read and the generation's random epoch, so a cursor of a replaced stream (the team
 * deleted and created again) or of a trimmed position is noticed (`reset`).
 */
import type { TeamEventRecord } from '../../protocol/events.js';
import type { Cursor, EventPage } from '../team-store.js';
import { runOnce, type RedisContext } from './context.js';
import { decodeRows, type StreamRow } from './stream-codec.js';

/** Compares two stream ids (`<ms>-<seq>`) numerically. */
export function compareStreamIds(a: string, b: string): number {
  const [am = '0', as = '0'] = a.split('-');
  const [bm = '0', bs = '0'] = b.split('-');
  const d = BigInt(am) - BigInt(bm) || BigInt(as) - BigInt(bs);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

function parseCursor(cursor: Cursor | undefined): { id: string; epoch: string } | undefined {
  if (cursor === undefined) return undefined;
  const m = /^(\d+-\d+)@(.*)$/.exec(cursor);
  return m ? { id: m[1]!, epoch: m[2]! } : { id: '0-0', epoch: '\u0000invalid' };
}

/** Events after `since`. */
export async function readEvents(rc: RedisContext, team: string, options: { since?: Cursor | undefined; limit?: number | undefined } = {}): Promise<EventPage> {
  const since = parseCursor(options.since);
  const first = await page(rc, team, since?.id ?? '0-0', options.limit);
  const epoch = first.epoch ?? '';
  const replaced = since !== undefined && since.epoch !== epoch;
  const trimmed = since !== undefined && !replaced && compareStreamIds(first.maxDeleted, since.id) > 0;
  if (!replaced && !trimmed) return { events: decodeRows(first.rows), cursor: cursorOf(first.rows, since?.id ?? '0-0', epoch), reset: false };
  const again = await page(rc, team, '0-0', options.limit);
  return { events: decodeRows(again.rows), cursor: cursorOf(again.rows, '0-0', again.epoch ?? ''), reset: true };
}

async function page(rc: RedisContext, team: string, after: string, limit: number | undefined): Promise<{ epoch: string | null; maxDeleted: string; rows: StreamRow[] }> {
  const value = (await runOnce(rc, 'read-events', team, [after, limit === undefined ? '' : String(limit)])).value as unknown[];
  return { epoch: value[0] as string | null, maxDeleted: String(value[2]), rows: value.slice(3) as StreamRow[] };
}

function cursorOf(rows: readonly StreamRow[], fallback: string, epoch: string): Cursor {
  return `${rows.at(-1)?.[0] ?? fallback}@${epoch}` as Cursor;
}

/** Journals events observed in the store, as given. */
export async function recordObserved(rc: RedisContext, team: string, events: readonly TeamEventRecord[]): Promise<void> {
  if (events.length === 0) return;
  await runOnce(rc, 'record-observed', team, events.map((e) => JSON.stringify(e)));
}
