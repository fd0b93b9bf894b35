/**
 * Idempotency keys of the filesystem store: `<root>/mailroom/idempotency/<team>/` holds one small
 * JSON record per key used — `m-<sha256>.json` for appends, `t-<sha256>.json` for task creations —
 * each written atomically under its own lock (`<record>.lock`).
 *
 * Appends do not depend on the record alone: the entries of an append with a key get msg_ids
 * derived from the key (domain `idempotentMsgId`), checked under the inbox lock, so two racing calls
 * with one key store one message even before either record exists. The record then lets a retry be
 * answered without reading inboxes, also after Claude Code deleted the delivered entry.
 *
 * An append record names its call's copies (`plan`: recipient and entry) from the step that wrote
 * the first of them: every copy is written under its inbox lock with the record's lock held
 * ({@link writeKeyedCopies}), and the first fixes the plan. A twin of the call built from another
 * roster (a broadcast sent again after a member joined or left) whose first step finds another plan
 * writes nothing and carries out the plan instead. The record is complete once every planned copy is
 * written — in the step that writes the last one — and never changes after: a retry replays one list,
 * the one every copy under the key belongs to (break test, session 18: a shorter twin completed the
 * record while the longer one still wrote its last copy). Records written before `plan` existed are
 * complete once they hold `expected` messages.
 *
 * Task creations reserve their id first: under the task-list lock, `.highwatermark` is raised to the
 * new id, the record is written as `reserved`, the task file is written, and the record becomes
 * `created` with the task. Whatever the crash point, a retry finds either nothing (the id is burnt,
 * never reused: a new one is taken), a reservation whose task it then writes, or the task.
 *
 * Lifetime: records are kept at least {@link KEY_LIFETIME_MS} (24 h) and removed after that by the
 * next keyed operation of the team (at most one sweep per team per hour and process). A retry after
 * that creates again — except an append whose entry is still in the inbox.
 */
import { createHash } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { lazySchema } from '../../protocol/lazy-schema.js';
import { isErrno } from '../../errors.js';
import { InboxEntrySchema } from '../../protocol/inbox.js';
import { TaskSchema, type Task } from '../../protocol/task.js';
import { corruptFile, readJsonFile, writeJsonFile } from './json-file.js';
import type { HeldLock } from './lock.js';
import type { StoredMessage } from '../team-store.js';
import { ensureDir, locked, type FsContext } from './context.js';

/** How long a key is remembered at least (ms). */
export const KEY_LIFETIME_MS = 24 * 60 * 60_000;
const SWEEP_EVERY_MS = 60 * 60_000;

const MessageKeySchema = lazySchema(() => z.object({
  v: z.literal(1),
  key: z.string(),
  at: z.number(),
  /** How many messages the call appended (the record answers a retry only once it has them all). */
  expected: z.number().int(),
  messages: z.array(z.object({ to: z.string(), entry: InboxEntrySchema })),
  /** The call's copies, in its order, as the step that wrote the first of them built them (absent in older records). */
  plan: z.array(z.object({ to: z.string(), entry: InboxEntrySchema })).optional(),
}));

type MessageKeyRecord = z.infer<typeof MessageKeySchema>;

/** A copy's identity in a record: its recipient and msg_id. */
function copyId(m: { to: string; entry: { msg_id?: string | undefined } }): string {
  return `${m.to}\u0000${m.entry.msg_id ?? ''}`;
}

/** The record's messages when every copy it names is written (in the plan's order), else undefined. */
function completed(record: MessageKeyRecord): StoredMessage[] | undefined {
  if (record.plan === undefined) return record.messages.length >= record.expected ? record.messages : undefined;
  const written = new Map(record.messages.map((m) => [copyId(m), m] as const));
  const out: StoredMessage[] = [];
  for (const p of record.plan) {
    const m = written.get(copyId(p));
    if (m === undefined) return undefined;
    out.push(m);
  }
  return out;
}

const TaskKeySchema = lazySchema(() => z.object({
  v: z.literal(1),
  key: z.string(),
  at: z.number(),
  id: z.string(),
  state: z.enum(['reserved', 'created']),
  task: TaskSchema.optional(),
}));

/** What a task key's record says. */
export type TaskKeyRecord = z.infer<typeof TaskKeySchema>;

function recordPath(ctx: FsContext, team: string, prefix: 'm' | 't', key: string): string {
  return join(ctx.layout.idempotencyDir(team), `${prefix}-${createHash('sha256').update(key).digest('hex')}.json`);
}

/**
 * A key's record, undefined when there is none. One that does not parse is never taken for "no
 * record" (which the next keyed call would write over: break test, session 18).
 * @throws FILE_CORRUPT naming the record and the fix (`mailroom doctor --fix` quarantines it)
 */
async function readRecord<S extends z.ZodTypeAny>(path: string, schema: S): Promise<z.infer<S> | undefined> {
  const read = await readJsonFile(path);
  if (read.state !== 'ok') return undefined;
  const parsed = schema.safeParse(read.value);
  if (!parsed.success) throw corruptFile(path, parsed.error, 'is not an idempotency key record');
  return parsed.data as z.infer<S>;
}

/**
 * What an append key's record says: its messages when the call stored them all (`messages`), else
 * the copies its call set out to write (`plan`, when a step fixed it), else undefined.
 */
export async function readMessageKey(ctx: FsContext, team: string, key: string): Promise<{ messages?: StoredMessage[]; plan?: StoredMessage[] } | undefined> {
  const record = await readRecord(recordPath(ctx, team, 'm', key), MessageKeySchema);
  if (record === undefined) return undefined;
  const messages = completed(record);
  if (messages) return { messages };
  return record.plan ? { plan: record.plan } : undefined;
}

/** What {@link writeKeyedCopies} did: wrote this step's copies, or found another plan (nothing written). */
export type KeyedStep = { written: true } | { written: false; plan: StoredMessage[] };

/**
 * Writes copies of a keyed append (`plan`, the whole call's copies) under the key record's lock:
 * `write` (the caller's inbox write, done under that inbox's lock: lock order inbox, then record,
 * never the other way) runs only when the record has no plan yet or has this one; it returns the
 * copies it stored (as stored), which join the record's messages in the same step. A record that
 * names another plan, or is complete already, is returned instead, and nothing is written.
 */
export async function writeKeyedCopies(ctx: FsContext, team: string, key: string, plan: readonly StoredMessage[], now: number, write: () => Promise<StoredMessage[]>): Promise<KeyedStep> {
  const path = recordPath(ctx, team, 'm', key);
  await ensureDir(ctx.layout.idempotencyDir(team));
  const step = await locked(ctx, path, async (lock): Promise<KeyedStep> => {
    const current = await readRecord(path, MessageKeySchema);
    const fixed = current?.plan;
    if (fixed !== undefined && !samePlan(fixed, plan)) return { written: false, plan: fixed };
    // A complete record never changes, and a copy it names is not written again (Claude Code may
    // have deleted it since): the caller, having found it incomplete just before, replays it.
    if (current !== undefined && completed(current)) return { written: false, plan: fixed ?? current.messages };
    const stored = await write();
    const messages = [...(current?.messages ?? [])];
    for (const m of stored) if (!messages.some((x) => copyId(x) === copyId(m))) messages.push({ to: m.to, entry: m.entry });
    const named = fixed ?? plan.map((m) => ({ to: m.to, entry: m.entry }));
    await writeJsonFile(path, { v: 1, key, at: current?.at ?? now, expected: named.length, messages, plan: named }, lock);
    return { written: true };
  });
  void sweep(ctx, team, now);
  return step;
}

/**
 * Whether two calls make the same copies: recipients and key-derived msg_ids, and the same sender,
 * text and summary (a retry's timestamp, and in a signed team its signature, differ; a call with
 * another message under the key is not a retry, and carries out the first call's plan as a replay).
 */
function samePlan(a: readonly StoredMessage[], b: readonly StoredMessage[]): boolean {
  if (a.length !== b.length) return false;
  const what = (m: StoredMessage) => JSON.stringify([copyId(m), m.entry.from, m.entry.text, m.entry.summary ?? null]);
  const ids = new Set(a.map(what));
  return b.every((m) => ids.has(what(m)));
}

/** The record of a task key. */
export async function readTaskKey(ctx: FsContext, team: string, key: string): Promise<TaskKeyRecord | undefined> {
  return readRecord(recordPath(ctx, team, 't', key), TaskKeySchema);
}

/**
 * Writes a task key's record under `list`, the task-list lock the caller holds (confirmed before and
 * after the rename, src/store/fs/locked-write.ts: a holder paused past the stale time never replaces a
 * record another holder wrote meanwhile).
 */
export async function writeTaskKey(ctx: FsContext, team: string, record: Omit<TaskKeyRecord, 'v' | 'task'> & { task?: Task | undefined }, list: HeldLock): Promise<void> {
  await ensureDir(ctx.layout.idempotencyDir(team));
  const path = recordPath(ctx, team, 't', record.key);
  await writeJsonFile(path, { v: 1, ...record }, list);
  void sweep(ctx, team, record.at);
}

const lastSweep = new Map<string, number>();

/** Removes records older than {@link KEY_LIFETIME_MS}, at most once an hour per team in this process. */
async function sweep(ctx: FsContext, team: string, now: number): Promise<void> {
  const dir = ctx.layout.idempotencyDir(team);
  if ((lastSweep.get(dir) ?? 0) > now - SWEEP_EVERY_MS) return;
  lastSweep.set(dir, now);
  try {
    for (const name of await readdir(dir)) {
      if (!/^[mt]-[0-9a-f]{64}\.json$/.test(name)) continue;
      const read = await readJsonFile(join(dir, name), { attempts: 1 }).catch(() => undefined);
      const at = read?.state === 'ok' ? (read.value as { at?: unknown }).at : undefined;
      if (typeof at === 'number' && at < now - KEY_LIFETIME_MS) await rm(join(dir, name), { force: true });
    }
  } catch (err) {
    if (!isErrno(err, 'ENOENT')) process.emitWarning(`mailroom could not sweep idempotency keys of team "${team}": ${String(err)}`, { code: 'MAILROOM_IDEMPOTENCY' });
  }
}
