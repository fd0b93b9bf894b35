/**
 * Dead letters of the filesystem store: `<root>/mailroom/dead-letters/<team>.json`, a JSON array of
 * dead letters (src/domain/dead-letters.ts), written atomically under its own lock. Claude Code never
 * reads it (it is outside `teams/` and `tasks/`).
 *
 * Moving an inbox's unread entries: under the inbox lock, the entries are first added to the
 * dead-letter file (its lock taken while the inbox lock is held, never the other way), then marked
 * read in the inbox, then journalled. A crash in between leaves them in both places, unread; the
 * next call adds nothing twice (by id) and marks them.
 */
import { dirname } from 'node:path';
import { z } from 'zod';
import { lazySchema } from '../../protocol/lazy-schema.js';
import { deadLetterId, deadLetterOf, DeadLetterSchema, isDeadLetter, type DeadLetter } from '../../domain/dead-letters.js';
import { entryKey } from '../../domain/entries.js';
import { deliveryEvent } from '../../domain/events.js';
import type { TeamEventRecord } from '../../protocol/events.js';
import { corruptFile, readJsonFile, writeJsonFile } from './json-file.js';
import type { OpContext, Transition } from '../team-store.js';
import { ensureDir, locked, nowOf, stampOf, type FsContext } from './context.js';
import { saveInbox, withInbox } from './inboxes.js';
import { journal } from './journal.js';
import { readConfig } from './teams.js';

const FileSchema = lazySchema(() => z.array(DeadLetterSchema));

async function readFile(path: string): Promise<DeadLetter[]> {
  const read = await readJsonFile(path);
  if (read.state === 'missing') return [];
  const parsed = FileSchema.safeParse(read.value);
  if (!parsed.success) throw corruptFile(path, parsed.error, 'is not a list of dead letters');
  return parsed.data;
}

/** The team's dead letters, oldest first. @throws TEAM_NOT_FOUND, FILE_CORRUPT */
export async function listDeadLetters(ctx: FsContext, team: string): Promise<DeadLetter[]> {
  await readConfig(ctx, team);
  return readFile(ctx.layout.deadLettersPath(team));
}

/** Runs `fn` on the dead-letter file under its lock; writes what it returns (undefined: nothing). */
async function changeFile<T>(ctx: FsContext, team: string, fn: (letters: DeadLetter[]) => { result: T; next?: DeadLetter[] }): Promise<T> {
  const path = ctx.layout.deadLettersPath(team);
  await ensureDir(dirname(path));
  return locked(ctx, path, async (lock) => {
    const { result, next } = fn(await readFile(path));
    if (next) await writeJsonFile(path, next, lock);
    return result;
  });
}

/** Moves the unread entries of a departed member's inbox to the dead-letter file (see the module comment). */
export async function deadLetterInbox(ctx: FsContext, team: string, member: string, op?: OpContext): Promise<Transition<DeadLetter[]>> {
  const config = await readConfig(ctx, team);
  if (config.members.some((m) => m.name === member)) return { value: [], events: [] };
  const events: TeamEventRecord[] = [];
  const moved = await withInbox(ctx, team, member, async (inbox) => {
    const unread = inbox.entries.filter(isDeadLetter);
    if (unread.length === 0) return { result: [] as DeadLetter[], write: false };
    const letters = unread.map((e) => deadLetterOf(member, e, nowOf(op)));
    const added = await changeFile(ctx, team, (stored) => {
      const known = new Set(stored.map((l) => l.id));
      const fresh = letters.filter((l) => !known.has(l.id));
      return { result: fresh, ...(fresh.length > 0 ? { next: [...stored, ...fresh] } : {}) };
    });
    for (const e of unread) e.read = true;
    await saveInbox(ctx, team, member, inbox);
    const s = stampOf(team, op);
    events.push(...unread.map((e) => deliveryEvent(s, member, entryKey(e), 'dead-lettered')));
    await journal(ctx, team, events);
    return { result: added, write: false };
  });
  return { value: moved ?? [], events };
}

/**
 * Gives a member back in the roster its dead letters (TeamStore.redeliverDeadLetters): under the
 * inbox lock, the entries still in the inbox are marked unread and the inbox written, then they are
 * removed from the dead-letter file (its lock taken inside, as in {@link deadLetterInbox}). A crash
 * in between leaves them unread and still dead letters: the next call (or a retry) removes them and
 * re-sends nothing.
 */
export async function redeliverDeadLetters(ctx: FsContext, team: string, member: string, op?: OpContext): Promise<Transition<DeadLetter[]>> {
  const config = await readConfig(ctx, team);
  if (!config.members.some((m) => m.name === member)) return { value: [], events: [] };
  const events: TeamEventRecord[] = [];
  const back = await withInbox(ctx, team, member, async (inbox) => {
    const entries = new Map(inbox.entries.map((e) => [deadLetterId(e), e]));
    const mine = (await readFile(ctx.layout.deadLettersPath(team))).filter((l) => l.to === member && entries.has(l.id));
    if (mine.length === 0) return { result: [] as DeadLetter[], write: false };
    const unread = mine.map((l) => entries.get(l.id)!).filter((e) => e.read);
    for (const e of unread) e.read = false;
    if (unread.length > 0) await saveInbox(ctx, team, member, inbox);
    const ids = new Set(mine.map((l) => l.id));
    const removed = await changeFile(ctx, team, (stored) => ({ result: stored.filter((l) => ids.has(l.id)), next: stored.filter((l) => !ids.has(l.id)) }));
    const s = stampOf(team, op);
    events.push(...unread.map((e) => deliveryEvent(s, member, entryKey(e), 'released')));
    await journal(ctx, team, events);
    return { result: removed, write: false };
  });
  return { value: back ?? [], events };
}

/** Removes dead letter `id` under the file's lock: exactly one caller gets it. */
export async function removeDeadLetter(ctx: FsContext, team: string, id: string): Promise<Transition<DeadLetter | undefined>> {
  await readConfig(ctx, team);
  const removed = await changeFile(ctx, team, (stored) => {
    const i = stored.findIndex((l) => l.id === id);
    if (i < 0) return { result: undefined };
    return { result: stored[i], next: stored.filter((_, j) => j !== i) };
  });
  return { value: removed, events: [] };
}
