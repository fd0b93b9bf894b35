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
import { readJsonFile, writeJsonFile } from './json-file.js';
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
}));

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

async function readRecord<S extends z.ZodTypeAny>(path: string, schema: S): Promise<z.infer<S> | undefined> {
  const read = await readJsonFile(path).catch(() => undefined);
  if (read?.state !== 'ok') return undefined;
  const parsed = schema.safeParse(read.value);
  return parsed.success ? (parsed.data as z.infer<S>) : undefined;
}

/** The record of an append key, when its call stored its messages. */
export async function readMessageKey(ctx: FsContext, team: string, key: string): Promise<{ messages: StoredMessage[] } | undefined> {
  const record = await readRecord(recordPath(ctx, team, 'm', key), MessageKeySchema);
  return record && record.messages.length >= record.expected ? { messages: record.messages } : undefined;
}

/**
 * Adds `stored` (one recipient's part of a call of `expected` messages) to the key's record, under
 * the record's lock (taken while the caller holds that recipient's inbox lock: never the other way).
 */
export async function recordMessageKey(ctx: FsContext, team: string, key: string, expected: number, stored: readonly StoredMessage[], now: number): Promise<void> {
  const path = recordPath(ctx, team, 'm', key);
  await ensureDir(ctx.layout.idempotencyDir(team));
  await locked(ctx, path, async (lock) => {
    const current = await readRecord(path, MessageKeySchema);
    const messages = [...(current?.messages ?? [])];
    for (const m of stored) if (!messages.some((x) => x.to === m.to && x.entry.msg_id === m.entry.msg_id)) messages.push({ to: m.to, entry: m.entry });
    await writeJsonFile(path, { v: 1, key, at: current?.at ?? now, expected, messages }, lock);
  });
  void sweep(ctx, team, now);
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
