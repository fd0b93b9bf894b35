/**
 * Appending messages to inbox files (`TeamStore.appendMessages` on the filesystem). Every recipient
 * is checked against the roster first; then, per recipient inbox, one step under its lock: msg_ids
 * already in the inbox are not appended again (an idempotency key's derived ids, or a spooled batch
 * a dead holder had appended), timestamps are assigned so that they never decrease in file order
 * and (`from`, `timestamp`, `text`) stays unique (src/domain/entries.ts), the file is written (a
 * displaced write merges back by entry identity, recover-inbox.ts), and the `message` events are
 * journalled before the lock is released. An append under the sender's view stamp
 * (AppendOptions.expectViewStamp) is compared with the team's (view-stamp.ts) in the first
 * recipient's locked step, right before the write: when it differs nothing is written (VIEW_MOVED).
 *
 * A writer that finds the inbox lock taken spools its batch (inbox-spool.ts): the next holder
 * appends it with its own in the same write and journals its events with the spooler's stamp, and
 * the spooler returns what its receipt says — the same entries and events it would have produced.
 * (Appends with an idempotency key do not spool, see {@link appendToInbox}.)
 */
import { checkIdempotencyKey } from '../../domain/idempotency-key.js';
import { checkOutgoingMessage } from '../../domain/outgoing-entry.js';
import { z } from 'zod';
import { lazySchema } from '../../protocol/lazy-schema.js';
import { assignTimestamps, idempotentMsgId } from '../../domain/entries.js';
import { messageEvent, type EventStamp } from '../../domain/events.js';
import { requireMember } from '../../domain/roster.js';
import { TeamEventRecordSchema, type TeamEventRecord } from '../../protocol/events.js';
import { InboxEntrySchema, type InboxEntry } from '../../protocol/inbox.js';
import { withLock, type HeldLock } from './lock.js';
import { lockDirFor } from './paths.js';
import type { AppendOptions, AppendResult, OutgoingMessage, StoredMessage, Transition } from '../team-store.js';
import { stampOf, type FsContext } from './context.js';
import { readMessageKey, writeKeyedCopies } from './idempotency.js';
import { ensureInbox } from './inbox-create.js';
import { appendThroughSpool, clearSpool, combiningEnabled, writeReceipt, type SpooledBatch } from './inbox-spool.js';
import { readRaw, validEntries, writeInboxArray } from './inboxes.js';
import { journal } from './journal.js';
import { readConfig } from './teams.js';
import { inboxlessMembersOf } from './health-names.js';
import { MailroomError } from '../../errors.js';
import { viewMoved } from '../../domain/view-moved.js';
import { viewUnchanged } from './view-stamp.js';
import { traceMark } from '../../trace-marks.js';

/**
 * The messages an append with `key` stored (its record), else undefined (TeamStore.readAppended).
 * @throws TEAM_NOT_FOUND, INVALID_ARGUMENT (an empty key)
 */
export async function readAppended(ctx: FsContext, team: string, key: string): Promise<StoredMessage[] | undefined> {
  checkIdempotencyKey(key);
  await readConfig(ctx, team);
  return (await readMessageKey(ctx, team, key))?.messages;
}

/**
 * Appends messages (see the module comment). With an idempotency key, each entry's msg_id is
 * derived from the key, so a retry or a racing twin stores nothing new and gets the first call's
 * entries (`replayed`); the key's record fixes which copies the call makes (idempotency.ts).
 */
export async function appendMessages(ctx: FsContext, team: string, messages: readonly OutgoingMessage[], options: AppendOptions = {}): Promise<Transition<AppendResult>> {
  if (messages.length === 0) return { value: { messages: [], replayed: false }, events: [] };
  for (const m of messages) checkOutgoingMessage(m);
  const config = await readConfig(ctx, team);
  const key = options.idempotencyKey;
  checkIdempotencyKey(key);
  if (key !== undefined) return appendKeyed(ctx, team, key, messages, options, config);
  checkRecipients(ctx, team, config, messages);
  const out = await writeCopies(ctx, team, messages, stampOf(team, options), options.expectViewStamp, undefined);
  return { value: { messages: out.stored, replayed: false }, events: out.events };
}

/** Every recipient is a member, and its inbox file nameable and its own, before any copy is written. */
function checkRecipients(ctx: FsContext, team: string, config: Awaited<ReturnType<typeof readConfig>>, messages: readonly OutgoingMessage[]): void {
  for (const m of messages) requireMember(config, m.to, 'recipient');
  // Every recipient's inbox file must be nameable before any copy is written (NAME_TOO_LONG): a
  // broadcast never delivers to part of the team (issue 9 item 6).
  for (const m of messages) ctx.layout.inboxPath(team, m.to);
  // Nor read by another member too: two names Claude Code's file-name rule maps to one file.
  const shared = sharedInboxes(config);
  for (const m of messages) {
    const pair = shared.get(m.to);
    if (pair) throw inboxShared(ctx, team, pair);
  }
}

/** Each member whose inbox file another member's name maps to, with the pair in roster order. */
function sharedInboxes(config: Awaited<ReturnType<typeof readConfig>>): Map<string, readonly [string, string]> {
  const out = new Map<string, readonly [string, string]>();
  for (const issue of inboxlessMembersOf(config)) {
    if (issue.code !== 'INBOX_SHARED' || issue.with === undefined) continue;
    const pair = [issue.with, issue.member] as const;
    out.set(issue.member, pair);
    if (!out.has(issue.with)) out.set(issue.with, pair);
  }
  return out;
}

/** INVALID_NAME: a message to either of two members sharing one inbox file would be read by both. */
function inboxShared(ctx: FsContext, team: string, [first, second]: readonly [string, string]): MailroomError {
  const file = ctx.layout.inboxPath(team, first);
  return new MailroomError(
    'INVALID_NAME',
    `Members ${JSON.stringify(first)} and ${JSON.stringify(second)} of team ${team} share one inbox file, ${file} (Claude Code's file-name rule maps both names to it), so a message to either would be read by both; nothing was sent. Rename one of them in ${ctx.layout.configPath(team)} (\`mailroom doctor\` reports it as inbox-collision).`,
    { details: { team, members: [first, second], file } },
  );
}

/**
 * An append with an idempotency key. The key first: a retry of a call that stored its messages
 * replays them, whatever its recipients (a broadcast retried after a member left has fewer, as
 * Redis does); a call that started (its record has a plan) is carried out as planned, without the
 * roster or view check its first step passed. Otherwise the call's copies get key-derived msg_ids
 * and are written one inbox at a time, each step under the record's lock; a step that finds another
 * plan fixed by a racing twin (built from another roster) writes nothing, and this call then carries
 * out that plan — so every call with the key answers the same list.
 */
async function appendKeyed(ctx: FsContext, team: string, key: string, messages: readonly OutgoingMessage[], options: AppendOptions, config: Awaited<ReturnType<typeof readConfig>>): Promise<Transition<AppendResult>> {
  const known = await readMessageKey(ctx, team, key);
  if (known?.messages) return { value: { messages: known.messages, replayed: true }, events: [] };
  let plan: readonly StoredMessage[];
  let view = options.expectViewStamp;
  // Carrying out a plan found in the record (a call that started first) is a replay, even where it
  // writes copies that call had not written yet: this call's own message may differ (KEY_REUSED is
  // judged on replays, core/messages/send.ts).
  let adopted = known?.plan !== undefined;
  if (known?.plan) {
    plan = known.plan;
    view = undefined;
  } else {
    checkRecipients(ctx, team, config, messages);
    plan = keyedCopies(team, key, messages);
  }
  const s = stampOf(team, options);
  const events: TeamEventRecord[] = [];
  let fresh = 0;
  for (;;) {
    const out = await writeCopies(ctx, team, plan, s, view, key);
    events.push(...out.events);
    fresh += out.fresh;
    if (out.other === undefined) return { value: { messages: out.stored, replayed: adopted || fresh === 0 }, events };
    // Another plan was fixed (or completed) first: nothing of this one was written in that step.
    adopted = true;
    const now = await readMessageKey(ctx, team, key);
    if (now?.messages) return { value: { messages: now.messages, replayed: true }, events };
    plan = out.other;
    view = undefined;
  }
}

/**
 * The copies of a keyed call, with msg_ids derived from the key: the k-th copy to a recipient in
 * the call, not the call's index (a retry whose roster lost a member shifts the indexes, and the
 * copies already written must keep their ids).
 */
function keyedCopies(team: string, key: string, messages: readonly OutgoingMessage[]): StoredMessage[] {
  const seen = new Map<string, number>();
  return messages.map((m) => {
    const k = seen.get(m.to) ?? 0;
    seen.set(m.to, k + 1);
    return { to: m.to, entry: { ...m.entry, msg_id: idempotentMsgId(team, m.to, `${key}\u0000${k}`) } };
  });
}

/** What {@link writeCopies} did; `other` is the plan a keyed step found fixed instead of its own (the rest not written). */
interface Copies {
  stored: StoredMessage[];
  events: TeamEventRecord[];
  fresh: number;
  other?: readonly StoredMessage[];
}

/**
 * Writes `copies` one recipient inbox at a time. The sender's view is checked at the first
 * recipient's inbox step only: once a copy is written the send has happened, and the other copies
 * follow (a broadcast on files is one step per inbox). With `key`, each step goes through the key's
 * record (idempotency.ts `writeKeyedCopies`).
 * @throws VIEW_MOVED (nothing written)
 */
async function writeCopies(ctx: FsContext, team: string, copies: readonly OutgoingMessage[], s: EventStamp, expectView: string | undefined, key: string | undefined): Promise<Copies> {
  const stored: StoredMessage[] = new Array<StoredMessage>(copies.length);
  const events: TeamEventRecord[] = [];
  let fresh = 0;
  let view = expectView;
  for (const [to, items] of byRecipient(copies)) {
    let other: readonly StoredMessage[] | undefined;
    const gate: Gate | undefined = key === undefined ? undefined : async (entries, commit) => {
      const step = await writeKeyedCopies(ctx, team, key, copies as readonly StoredMessage[], s.at, async () => {
        await commit();
        return entries.map((entry) => ({ to, entry }));
      });
      if (!step.written) other = step.plan;
      return step.written;
    };
    const part = await appendToInbox(ctx, team, to, { at: s.at, actor: s.actor, entries: items.map((i) => i.entry), ...(view === undefined ? {} : { view }) }, { direct: key !== undefined, gate });
    view = undefined;
    if (part.moved) throw viewMoved(team);
    if (other !== undefined) return { stored: [], events, fresh, other };
    part.stored.forEach((entry, i) => (stored[items[i]!.index] = { to, entry }));
    fresh += part.fresh.filter(Boolean).length;
    events.push(...part.events);
  }
  return { stored, events, fresh };
}

/**
 * A keyed append's hold on one inbox step: given the entries as they will be stored and the step's
 * write (inbox and journal), runs it under the key record's lock, or declines (false: nothing written).
 */
type Gate = (stored: InboxEntry[], commit: () => Promise<void>) => Promise<boolean>;

interface Item {
  index: number;
  entry: InboxEntry;
}

function byRecipient(messages: readonly OutgoingMessage[]): Map<string, Item[]> {
  const out = new Map<string, Item[]>();
  messages.forEach((m, index) => {
    const list = out.get(m.to) ?? out.set(m.to, []).get(m.to)!;
    list.push({ index, entry: { ...m.entry } });
  });
  return out;
}

/** One appender's entries for one inbox, with the stamp of its events: what a spool file holds. */
const BatchSchema = lazySchema(() => z.object({
  v: z.literal(1),
  at: z.number(),
  actor: z.string().optional(),
  entries: z.array(InboxEntrySchema),
  /** The view stamp its sender read under (view-stamp.ts): the holder appends it only while the team's is that. */
  view: z.string().optional(),
}));

type Batch = Omit<z.infer<typeof BatchSchema>, 'v'>;

/** A spooled batch's content; a bare array of entries (the spool format before events were journalled in the same step) gets the holder's instant. */
function spooledBatch(body: unknown, now: number): Batch | undefined {
  const parsed = BatchSchema.safeParse(body);
  if (parsed.success) return parsed.data;
  const legacy = z.array(InboxEntrySchema).safeParse(body);
  return legacy.success ? { at: now, entries: legacy.data } : undefined;
}

/** What one batch came to: per entry, the entry as stored and whether it was new; the events journalled. Also the receipt format. */
const PartSchema = lazySchema(() => z.object({
  stored: z.array(InboxEntrySchema),
  fresh: z.array(z.boolean()),
  events: z.array(TeamEventRecordSchema),
  /** The batch was not appended: the team's view stamp was not its `view` (VIEW_MOVED). */
  moved: z.boolean().optional(),
}));

type Part = z.infer<typeof PartSchema>;

/**
 * Appends one batch to `to`'s inbox, through its spool — or `direct`ly, taking the lock itself: an
 * append with an idempotency key, whose caller must learn whether its own call stored anything (a
 * holder appending spooled batches cannot tell a racing twin's batch, found in the inbox already,
 * from one a dead holder left behind, and leaves no receipt for the latter).
 */
async function appendToInbox(ctx: FsContext, team: string, to: string, batch: Batch, how: { direct: boolean; gate?: Gate | undefined }): Promise<Part> {
  const path = ctx.layout.inboxPath(team, to);
  await ensureInbox(path);
  const lockDir = lockDirFor(path);
  const underLock = (lock: HeldLock, spooled: SpooledBatch[], own: string | undefined) => appendBatches(ctx, team, to, lock, spooled, own, batch, how.gate);
  if (how.direct || !combiningEnabled()) return withLock(path, lockDir, ctx.lock, async (lock) => (await underLock(lock, [], undefined))!);
  const outcome = await appendThroughSpool(path, lockDir, ctx.lock, { v: 1, ...batch }, underLock);
  if (outcome.by === 'self') return outcome.value;
  const receipt = PartSchema.safeParse(outcome.receipt);
  // No receipt (lost to a power cut): the entries are in the inbox as given, and their events in the journal.
  return receipt.success ? receipt.data : { stored: batch.entries, fresh: batch.entries.map(() => true), events: batch.entries.map((e) => messageEvent(stampOfBatch(team, batch), to, e)) };
}

/**
 * Under the inbox lock: appends the spooled batches in spooling order — `own` (this caller's batch
 * among them), or this caller's `batch` after them when it did not spool — in one write, journals
 * their events, leaves the other spoolers their receipts and clears the spool. A `gate` (a keyed
 * append's, which never spools) runs the write and journal step, or declines it (nothing written).
 * @returns this caller's part, or undefined when its spooled batch was gone (appended by another holder)
 */
async function appendBatches(ctx: FsContext, team: string, to: string, lock: HeldLock, spooled: SpooledBatch[], own: string | undefined, batch: Batch, gate?: Gate): Promise<Part | undefined> {
  const path = ctx.layout.inboxPath(team, to);
  const { raw, text } = (await readRaw(path)) ?? { raw: [] as unknown[], text: undefined };
  const existing = validEntries(raw);
  const ids = new Map(existing.flatMap((e) => (e.msg_id === undefined ? [] : [[e.msg_id, e] as const])));
  const queue: Array<{ batch: Batch; from?: SpooledBatch }> = spooled.flatMap((b) => {
    const parsed = spooledBatch(b.body, batch.at);
    return parsed ? [{ batch: parsed, from: b }] : [];
  });
  if (own === undefined) queue.push({ batch });
  const parts: Part[] = [];
  let added = 0;
  const judged = new Map<string, boolean>();
  const unchanged = (view: string): boolean => judged.get(view) ?? (judged.set(view, viewUnchanged(ctx, team, view)), judged.get(view)!);
  for (const q of queue) {
    // The sender's view, compared in this locked step (view-stamp.ts): one taken before it is not appended.
    if (q.batch.view !== undefined && !unchanged(q.batch.view)) {
      parts.push({ stored: [], fresh: [], events: [], moved: true });
      continue;
    }
    const part = applyBatch(team, to, existing, ids, structuredClone(q.batch));
    raw.push(...part.stored.filter((_, i) => part.fresh[i]));
    added += part.fresh.filter(Boolean).length;
    parts.push(part);
  }
  const commit = async (): Promise<void> => {
    // Never archives (issue 24 item 4): readers and the archiver move read history, beside sends (inboxes.ts).
    if (added > 0) await writeInboxArray(path, raw, lock, text);
    traceMark('send-written');
    await journal(ctx, team, parts.flatMap((p) => p.events));
    traceMark('send-journaled');
  };
  if (gate !== undefined && queue.length === 1 && own === undefined && parts[0]!.moved !== true) {
    if (!(await gate(parts[0]!.stored, commit))) return { stored: [], fresh: [], events: [] };
    return parts[0];
  }
  await commit();
  let mine: Part | undefined;
  for (const [i, q] of queue.entries()) {
    if (q.from === undefined || q.from.path === own) mine = parts[i];
    // A batch found entirely in the inbox already was appended by a holder that died before its
    // clean-up: its waiter, if still there, gets no receipt and returns what it spooled.
    else if (parts[i]!.fresh.some(Boolean) || parts[i]!.moved) await writeReceipt(q.from, parts[i]).catch(() => undefined);
  }
  await clearSpool(spooled);
  return mine;
}

/** Applies one batch to the inbox as read so far (`existing`, `ids` grow with it). */
function applyBatch(team: string, to: string, existing: InboxEntry[], ids: Map<string, InboxEntry>, batch: Batch): Part {
  const stored: InboxEntry[] = [];
  const fresh: boolean[] = [];
  const added: InboxEntry[] = [];
  for (const entry of batch.entries) {
    const there = entry.msg_id === undefined ? undefined : ids.get(entry.msg_id);
    stored.push(there ?? entry);
    fresh.push(there === undefined);
    if (there !== undefined) continue;
    added.push(entry);
    if (entry.msg_id !== undefined) ids.set(entry.msg_id, entry);
  }
  assignTimestamps(existing, added);
  existing.push(...added);
  const s = stampOfBatch(team, batch);
  return { stored, fresh, events: added.map((e) => messageEvent(s, to, e)) };
}

function stampOfBatch(team: string, batch: Batch): EventStamp {
  return { team, at: batch.at, source: 'mailroom', actor: batch.actor };
}
