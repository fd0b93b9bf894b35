/**
 * Team events: what a team-store transition caused, journalled in the same step and returned to
 * the caller (docs/journal.md). One event is one journal line (the filesystem store's NDJSON
 * file) or one stream entry (the Redis store). `watch`, `log`, MCP waits and the runtime's
 * wake-ups all consume this one stream.
 *
 * Versioned like openai-agents-js RunState: {@link EVENT_VERSION} is what this release writes for
 * the kinds of version 2, {@link SUPPORTED_EVENT_VERSIONS} what it reads. Version 1 (mailroom ≤ 0.1:
 * `message`, `task`, `member`) is a subset of version 2 and reads unchanged. Version 3 adds the
 * kinds `refused` and `settings`; an event is written with the lowest version that has its kind
 * ({@link versionOfKind}), so a release that reads only 1 and 2 keeps reading every line it
 * understands and skips exactly the new kinds. A reader skips a line whose version it does not
 * support, or whose `kind` it does not know (a newer writer's), never fails on it.
 */
import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { InboxEntrySchema } from './inbox.js';
import { TaskSchema } from './task.js';

/** The event format version this release writes for the kinds of versions 1 and 2. */
export const EVENT_VERSION = 2;
/** The version that added `refused` and `settings` events (written with it, see {@link versionOfKind}). */
export const EVENT_VERSION_3 = 3;
/** The version that added `lease` events (advisory path leases, docs/leases.md). */
export const EVENT_VERSION_4 = 4;
/** Every event format version this release reads. */
export const SUPPORTED_EVENT_VERSIONS: readonly number[] = [1, 2, 3, 4];

/** The fields every event has, built on first use like the schemas (building zod schemas at load costs a one-shot verb ~1 ms). */
const base = () => ({
  v: z.number().int(),
  /** The team's name (its config `name`). */
  team: z.string(),
  /** When the event was recorded: ISO-8601 UTC with milliseconds. */
  at: z.string(),
  /** `mailroom`: made by a mailroom operation; `observed`: seen in the store by a watcher (made by anyone, e.g. Claude Code). */
  source: z.enum(['mailroom', 'observed']),
  /** The member (or `user` for a person at the CLI without `--as`) who made the change, when known. */
  actor: z.string().optional(),
});

/** A message that reached an inbox: the entry exactly as stored, and its recipient. */
export const MessageEventSchema = lazySchema(() => z.looseObject({ ...base(), kind: z.literal('message'), to: z.string(), entry: InboxEntrySchema }));

/**
 * A message moved along its delivery states (queued → delivered → read → replied; or
 * released back to unread, cancelled, dead-lettered). `key` is the entry's identity
 * (`msg_id`, else from+timestamp+text, see `entryKey`).
 */
export const DeliveryEventSchema = lazySchema(() => z.looseObject({
  ...base(),
  kind: z.literal('delivery'),
  to: z.string(),
  key: z.string(),
  state: z.enum(['delivered', 'released', 'read', 'replied', 'cancelled', 'dead-lettered']),
  /** For `delivered`/`released`: the lease that handed it out. */
  lease: z.string().optional(),
  /** For `replied`: the key of the reply. */
  reply: z.string().optional(),
}));

/** A task created, changed or deleted: the task after the change (as last seen, for deletions). */
export const TaskEventSchema = lazySchema(() => z.looseObject({
  ...base(),
  kind: z.literal('task'),
  action: z.enum(['created', 'updated', 'deleted']),
  task: TaskSchema,
  /** Top-level task keys whose value changed (updates only; metadata-only changes list `metadata`). */
  changed: z.array(z.string()).optional(),
}));

/** A member that joined, left or changed in the roster. */
export const MemberEventSchema = lazySchema(() => z.looseObject({
  ...base(),
  kind: z.literal('member'),
  action: z.enum(['joined', 'left', 'updated']),
  name: z.string(),
  agentId: z.string().optional(),
  /** Member keys whose value changed (`updated` only). */
  changed: z.array(z.string()).optional(),
}));

/** The team itself was created, deleted (moved aside, restorable) or restored. */
export const TeamLifecycleEventSchema = lazySchema(() => z.looseObject({ ...base(), kind: z.literal('team'), action: z.enum(['created', 'deleted', 'restored']) }));

/**
 * An attempt that was refused (v3): a policy rule, a hook, a missing approval, a control message
 * without a valid signature. `actor` is who attempted it (for a forged message: who it claimed to
 * be from); nothing else changed. `mailroom log --actor` shows them with the changes.
 */
export const RefusedEventSchema = lazySchema(() => z.looseObject({
  ...base(),
  kind: z.literal('refused'),
  /** What was attempted: `message`, `task.create`, `task.assign`, `task.delete`, `task.complete`, `member.stop`, `command`, `control`, … */
  action: z.string(),
  /** The rule that refused, as in the error (`policy.createTasks`, `hook:TaskCompleted`, `approval`, `signature`). */
  rule: z.string(),
  /** The error code the attempt got (`NOT_PERMITTED`, `HOOK_BLOCKED`, `NOT_APPROVED`, …). */
  code: z.string(),
  /** The refusal's message, for humans. */
  message: z.string(),
  /** What it was aimed at, when there is one: a member name, a task id (`#3`), a request id. */
  target: z.string().optional(),
  /** Where the attempt came from: `cli`, `runtime`, `mcp`. */
  surface: z.string().optional(),
}));

/** The team's settings changed (v3): `changed` names the top-level keys (`policy`, `signing`, …). */
export const SettingsEventSchema = lazySchema(() => z.looseObject({ ...base(), kind: z.literal('settings'), changed: z.array(z.string()) }));

/** A path lease changed (v4): acquired, released, expired (`why`: left, dead, stopped, expired) or forced (taken over by the lead). */
export const LeaseEventSchema = lazySchema(() => z.looseObject({
  ...base(),
  kind: z.literal('lease'),
  action: z.enum(['acquired', 'released', 'expired', 'forced']),
  id: z.string(),
  holder: z.string(),
  paths: z.array(z.string()),
  shared: z.boolean(),
  token: z.number(),
  reason: z.string().optional(),
  why: z.string().optional(),
}));

/** Every event kind this release knows. */
export const TeamEventRecordSchema = lazySchema(() => z.discriminatedUnion('kind', [
  MessageEventSchema,
  DeliveryEventSchema,
  TaskEventSchema,
  MemberEventSchema,
  TeamLifecycleEventSchema,
  RefusedEventSchema,
  SettingsEventSchema,
  LeaseEventSchema,
]));

/** One event as journalled. */
export type TeamEventRecord = z.infer<typeof TeamEventRecordSchema>;
/** A `message` event. */
export type MessageEvent = z.infer<typeof MessageEventSchema>;
/** A `delivery` event. */
export type DeliveryEvent = z.infer<typeof DeliveryEventSchema>;
/** A `task` event. */
export type TaskEvent = z.infer<typeof TaskEventSchema>;
/** A `member` event. */
export type MemberEvent = z.infer<typeof MemberEventSchema>;
/** A `team` event. */
export type TeamLifecycleEvent = z.infer<typeof TeamLifecycleEventSchema>;
/** A `refused` event (v3). */
export type RefusedEvent = z.infer<typeof RefusedEventSchema>;
/** A `settings` event (v3). */
export type SettingsEvent = z.infer<typeof SettingsEventSchema>;
/** A `lease` event (v4). */
export type LeaseEvent = z.infer<typeof LeaseEventSchema>;
/** Who recorded an event. */
export type EventSource = TeamEventRecord['source'];

/** The version an event of `kind` is written with: the lowest that has the kind. */
export function versionOfKind(kind: TeamEventRecord['kind']): number {
  if (kind === 'lease') return EVENT_VERSION_4;
  return kind === 'refused' || kind === 'settings' ? EVENT_VERSION_3 : EVENT_VERSION;
}

/**
 * Validates one decoded event: `undefined` for an unsupported version, an unknown kind or a bad
 * field (the reader skips it).
 */
export function parseEvent(value: unknown): TeamEventRecord | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = (value as { v?: unknown }).v;
  if (typeof v !== 'number' || !SUPPORTED_EVENT_VERSIONS.includes(v)) return undefined;
  const parsed = TeamEventRecordSchema.safeParse(value);
  return parsed.success ? (value as TeamEventRecord) : undefined;
}
