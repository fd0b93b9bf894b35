/**
 * `TeamStore.readInboxChanges` on Redis (issue 24 item 4): an inbox follower reads the entries
 * past its mark's sequence number and the inbox's unread set — what a change costs, never the read
 * history — instead of the whole inbox. The mark keeps the position, the unread entries' keys, and
 * the first and last entries it saw: an inbox whose entries were removed (archived, set aside,
 * the team deleted and created again) or turned unread again reads in full.
 */
import { entryKey } from '../../domain/entries.js';
import type { InboxEntry } from '../../protocol/inbox.js';
import type { InboxChanges, InboxMark } from '../team-store.js';
import { assembleEntry } from './codec.js';
import { runOnce, type RedisContext } from './context.js';

/** A Redis inbox mark (the opaque {@link InboxMark} of this backend). */
class RedisInboxMark {
  constructor(
    readonly member: string,
    /** The team generation's key prefix: another generation is another inbox. */
    readonly prefix: string,
    /** The append counter and the live count at the read. */
    readonly counter: number,
    readonly count: number,
    /** Seq and stored JSON of the first and last live entries ('' when empty). */
    readonly first: { seq: string; doc: string },
    readonly last: { seq: string; doc: string },
    /** Unread entries at the read: seq → entryKey. */
    readonly unread: ReadonlyMap<string, string>,
  ) {}
}

type Row = [doc: string, unread: '1' | '0', seq: string];

/** What changed in `member`'s inbox since `since` (see `TeamStore.readInboxChanges`). */
export async function readInboxChanges(rc: RedisContext, team: string, member: string, since?: InboxMark): Promise<InboxChanges> {
  const mark = since instanceof RedisInboxMark && since.member === member ? since : undefined;
  const args = mark ? [member, String(mark.counter), mark.first.seq, mark.last.seq] : [member, '', '', ''];
  let value = (await runOnce(rc, 'read-inbox-changes', team, args)).value as unknown[];
  if (mark && !continues(mark, value)) value = (await runOnce(rc, 'read-inbox-changes', team, [member, '', '', ''])).value as unknown[];
  else if (mark) return delta(mark, value);
  return full(member, value);
}

function head(value: unknown[]): { prefix: string; counter: number; count: number; first: string; unread: string[]; rows: Row[] } {
  return { prefix: String(value[0]), counter: Number(value[1]), count: Number(value[2]), first: String(value[3]), unread: value[4] as string[], rows: value.slice(7) as Row[] };
}

/** Whether the inbox is the mark's with entries appended after it and some turned read, nothing else. */
function continues(mark: RedisInboxMark, value: unknown[]): boolean {
  const h = head(value);
  if (h.prefix !== mark.prefix || h.counter < mark.counter || h.count !== mark.count + h.rows.length) return false;
  if (mark.count > 0 && (h.first !== mark.first.seq || value[5] !== mark.first.doc || value[6] !== mark.last.doc)) return false;
  // An entry unread now that was read at the mark (a dead letter redelivered): read in full.
  const fresh = new Set(h.rows.map((r) => r[2]));
  return h.unread.every((seq) => mark.unread.has(seq) || fresh.has(seq));
}

function delta(mark: RedisInboxMark, value: unknown[]): InboxChanges {
  const h = head(value);
  const now = new Set(h.unread);
  const read: string[] = [];
  const unread = new Map<string, string>();
  for (const [seq, key] of mark.unread) {
    if (now.has(seq)) unread.set(seq, key);
    else read.push(key);
  }
  const appended = h.rows.map((r) => entryOf(r, unread));
  const last = h.rows.at(-1);
  const next = new RedisInboxMark(mark.member, h.prefix, h.counter, h.count, mark.count > 0 ? mark.first : edge(h.rows[0]), last ? edge(last) : mark.last, unread);
  return { full: false, appended, read, mark: next as unknown as InboxMark };
}

function full(member: string, value: unknown[]): InboxChanges {
  const h = head(value);
  const unread = new Map<string, string>();
  const entries = h.rows.map((r) => entryOf(r, unread));
  const mark = new RedisInboxMark(member, h.prefix, h.counter, h.count, edge(h.rows[0]), edge(h.rows.at(-1)), unread);
  return { full: true, entries, mark: mark as unknown as InboxMark };
}

function entryOf([doc, unread, seq]: Row, unreadKeys: Map<string, string>): InboxEntry {
  const entry = assembleEntry(doc, unread === '1');
  if (unread === '1') unreadKeys.set(seq, entryKey(entry));
  return entry;
}

function edge(row: Row | undefined): { seq: string; doc: string } {
  return row ? { seq: row[2], doc: row[0] } : { seq: '', doc: '' };
}
