/**
 * Dead letters on Redis: the generation's hash `dl` (id → dead letter JSON) and list `dlorder`
 * (ids, oldest first), so a deleted team's dead letters go aside with it. Moving an inbox's unread
 * entries is one script (dead-letter-inbox.lua) given the documents built here from the inbox as
 * read; removing one is one script, exactly once.
 */
import { deadLetterOf, DeadLetterSchema, isDeadLetter, type DeadLetter } from '../../domain/dead-letters.js';
import { entryKey } from '../../domain/entries.js';
import type { OpContext, Transition } from '../team-store.js';
import { assembleEntry } from './codec.js';
import { envOf, nowOf, runOnce, type RedisContext } from './context.js';
import { readInboxRows } from './inboxes.js';

function parse(doc: string): DeadLetter {
  return DeadLetterSchema.parse(JSON.parse(doc));
}

/** Moves a departed member's unread entries to the dead letters (one script). */
export async function deadLetterInbox(rc: RedisContext, team: string, member: string, ctx?: OpContext): Promise<Transition<DeadLetter[]>> {
  const inbox = await readInboxRows(rc, team, member, 'live');
  const unread = inbox.rows.filter((r) => r.unread).map((row) => ({ row, entry: assembleEntry(row.doc, true) })).filter((u) => isDeadLetter(u.entry));
  const args = [envOf(team, ctx), member, String(unread.length)];
  for (const { row, entry } of unread) {
    const letter = deadLetterOf(member, entry, nowOf(ctx));
    args.push(row.seq, letter.id, entryKey(entry), JSON.stringify(letter));
  }
  const out = await runOnce(rc, 'dead-letter-inbox', team, args);
  return { value: (out.value as string[]).map(parse), events: out.events };
}

/**
 * Gives a member back in the roster its dead letters whose entries are still in its inbox: unread
 * again there, removed from the dead letters (one script, redeliver-dead-letters.lua).
 */
export async function redeliverDeadLetters(rc: RedisContext, team: string, member: string, ctx?: OpContext): Promise<Transition<DeadLetter[]>> {
  const mine = (await listDeadLetters(rc, team)).filter((l) => l.to === member);
  if (mine.length === 0) return { value: [], events: [] };
  const args = [envOf(team, ctx), member, String(mine.length), ...mine.flatMap((l) => [l.id, entryKey(l.entry)])];
  const out = await runOnce(rc, 'redeliver-dead-letters', team, args);
  return { value: (out.value as string[]).map(parse), events: out.events };
}

/** The team's dead letters, oldest first. */
export async function listDeadLetters(rc: RedisContext, team: string): Promise<DeadLetter[]> {
  return ((await runOnce(rc, 'read-dead-letters', team, [])).value as string[]).map(parse);
}

/** Removes one dead letter; exactly one racing caller gets it. */
export async function removeDeadLetter(rc: RedisContext, team: string, id: string): Promise<Transition<DeadLetter | undefined>> {
  const out = await runOnce(rc, 'remove-dead-letter', team, [id]);
  return { value: out.value === null ? undefined : parse(out.value as string), events: out.events };
}
