/**
 * Building team events (src/protocol/events.ts, format version {@link EVENT_VERSION}): what a
 * transition journals and returns. Every backend builds its events here, so the same transition
 * produces the same events on every backend (the contract suite compares them with the journal).
 */
import {
  EVENT_VERSION,
  versionOfKind,
  type DeliveryEvent,
  type RefusedEvent,
  type SettingsEvent,
  type LeaseEvent,
  type EventSource,
  type MemberEvent,
  type MessageEvent,
  type TaskEvent,
  type TeamEventRecord,
  type TeamLifecycleEvent,
} from '../protocol/events.js';
import type { InboxEntry } from '../protocol/inbox.js';
import type { Task } from '../protocol/task.js';
import type { PathLease } from '../protocol/path-lease.js';

/** Who, when and how an event was recorded. */
export interface EventStamp {
  team: string;
  /** Epoch ms. */
  at: number;
  source: EventSource;
  actor?: string | undefined;
}

/** ISO-8601 UTC with milliseconds, the only timestamp shape Claude Code accepts everywhere. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

function head(s: EventStamp, v = EVENT_VERSION): { v: number; team: string; at: string; source: EventSource; actor?: string } {
  const h: { v: number; team: string; at: string; source: EventSource; actor?: string } = { v, team: s.team, at: isoTime(s.at), source: s.source };
  if (s.actor !== undefined) h.actor = s.actor;
  return h;
}

/** A `message` event for an entry as stored in `to`'s inbox. */
export function messageEvent(s: EventStamp, to: string, entry: InboxEntry): MessageEvent {
  return { ...head(s), kind: 'message', to, entry };
}

/** A `delivery` event: entry `key` of `to`'s inbox moved to `state`. */
export function deliveryEvent(s: EventStamp, to: string, key: string, state: DeliveryEvent['state'], lease?: string): DeliveryEvent {
  const e: DeliveryEvent = { ...head(s), kind: 'delivery', to, key, state };
  if (lease !== undefined) e.lease = lease;
  return e;
}

/** A `task` event; for `deleted`, `task` is the task as it was; `changed` for updates. */
export function taskEvent(s: EventStamp, action: TaskEvent['action'], task: Task, changed?: readonly string[]): TaskEvent {
  const e: TaskEvent = { ...head(s), kind: 'task', action, task };
  if (changed !== undefined && action === 'updated') e.changed = [...changed];
  return e;
}

/** A `member` event. */
export function memberEvent(s: EventStamp, action: MemberEvent['action'], name: string, agentId?: string, changed?: readonly string[]): MemberEvent {
  const e: MemberEvent = { ...head(s), kind: 'member', action, name };
  if (agentId !== undefined) e.agentId = agentId;
  if (changed !== undefined && action === 'updated') e.changed = [...changed];
  return e;
}

/** A `team` lifecycle event. */
export function teamEvent(s: EventStamp, action: TeamLifecycleEvent['action']): TeamLifecycleEvent {
  return { ...head(s), kind: 'team', action };
}

/** What a refused attempt was (a {@link refusedEvent} without its stamp). */
export interface Refusal {
  action: string;
  rule: string;
  code: string;
  message: string;
  target?: string | undefined;
  surface?: string | undefined;
}

/** A `refused` event (format version 3): `s.actor` attempted `r.action`, and `r.rule` refused it. */
export function refusedEvent(s: EventStamp, r: Refusal): RefusedEvent {
  const e: RefusedEvent = { ...head(s, versionOfKind('refused')), kind: 'refused', action: r.action, rule: r.rule, code: r.code, message: r.message };
  if (r.target !== undefined) e.target = r.target;
  if (r.surface !== undefined) e.surface = r.surface;
  return e;
}

/** A `settings` event (format version 3): the top-level settings keys that changed. */
export function settingsEvent(s: EventStamp, changed: readonly string[]): SettingsEvent {
  return { ...head(s, versionOfKind('settings')), kind: 'settings', changed: [...changed] };
}

/** A path lease change (docs/leases.md). */
export function leaseEvent(s: EventStamp, action: LeaseEvent['action'], lease: PathLease, why?: string): LeaseEvent {
  return { ...head(s, versionOfKind('lease')), kind: 'lease', action, id: lease.id, holder: lease.holder, paths: [...lease.paths], shared: lease.shared, token: lease.token, ...(lease.reason ? { reason: lease.reason } : {}), ...(why ? { why } : {}) };
}

/**
 * A task's whole state, for deduplication: two events with the same signature record no change.
 * Covers existence, status, owner, subject, description, active form, deps and metadata (a
 * metadata-only update is a change too: the journal is an audit trail, issue 9 item 7), and any
 * other key a writer put in the file. Key order does not matter.
 */
export function taskSignature(task: Task | undefined): string {
  if (!task) return 'deleted';
  const { status, owner, subject, description, activeForm, blocks, blockedBy, metadata, ...rest } = task;
  return JSON.stringify([status, owner ?? '', subject, description, activeForm ?? '', blocks, blockedBy, canonical(metadata ?? {}), canonical(rest)]);
}

/** A JSON value with object keys sorted at every level, so equal values serialise equally. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) Object.defineProperty(out, key, { value: canonical((value as Record<string, unknown>)[key]), enumerable: true });
  return out;
}

/** Events in the order given, as a readonly list (for `Transition.events`). */
export type Events = TeamEventRecord[];
