/**
 * The team snapshot: everything `mailroom watch` shows (roster with member states, task board,
 * message flow across all inboxes), built from the parts a {@link TeamTracker} keeps. Pure: the
 * same parts give the same snapshot.
 */
import type { Member, TeamConfig } from '../../protocol/config.js';
import type { InboxEntry } from '../../protocol/inbox.js';
import { recordIsFor, type MemberRecord } from '../../protocol/member-record.js';
import type { ParsedText } from '../../protocol/structured.js';
import type { Task, TaskStatus } from '../../protocol/task.js';
import { presenceOf, type Presence, type PresenceClaim } from '../../domain/presence.js';
import { deriveMemberState, type MemberState, type SignalMessage } from '../members/member-state.js';
import { indexTasks, isInternal } from '../../domain/task-board.js';
import { viewOf, type TaskView } from '../tasks/board.js';

/** A message in the flow. */
export interface MessageView {
  /** {@link messageKey}: recipient + msg_id (or from+timestamp+text). */
  key: string;
  /** Recipient (the inbox it was found in). */
  to: string;
  entry: InboxEntry;
  parsed: ParsedText;
  /** One-line description ({@link describeText}). */
  line: string;
  /**
   * `unread` or `read`. An entry gone from its inbox is `read` (see {@link removed}): removed by its
   * reader, it counts as read, never as lost (`messageStatus` in message-book.ts).
   */
  status: 'unread' | 'read';
  /**
   * Set when the entry is no longer in its inbox: its reader removed it (Claude Code 2.1.332
   * deletes entries once delivered) or mailroom moved it to the inbox archive once read. Known from
   * the journal or the archive.
   */
  removed?: true;
}

/** One roster row. */
export interface MemberView {
  name: string;
  agentId?: string | undefined;
  isLead: boolean;
  /** False for a member that left (known from the journal or its shutdown approval). */
  inRoster: boolean;
  state: MemberState;
  /** Evidence for `state`, e.g. `idle notice at 2026-…`. */
  stateReason: string;
  /** Its presence from its reader claim, for a member a mailroom runtime runs or ran (it has a claim or a member record). */
  presence?: Presence | undefined;
  /** `backendType` as in config.json (Claude Code's backends only). */
  backendType?: string | undefined;
  /** How mailroom runs the member (`in-process`, `process`, `mcp`, …), from its member record. */
  runtime?: string | undefined;
  model?: string | undefined;
  color?: string | undefined;
  /** The lowest-id in_progress task it owns, else its lowest-id pending one. */
  currentTask?: { id: string; subject: string; status: TaskStatus } | undefined;
  /** Entries in its inbox whose `read` is not true. */
  unread: number;
  /** Timestamp of the latest message it sent (ISO-8601), if any. */
  lastActivity?: string | undefined;
}

/** What `watch` renders and `watch --json` summarises. */
export interface TeamSnapshot {
  team: string;
  /** False once config.json is gone (team deleted, Claude Code session ended): the rest is the last state seen. */
  exists: boolean;
  /**
   * Set when the team is removed for good: Claude Code 2.1.332 ended its session and is removing
   * the team (also while its config is still readable, as in 2.1.332 snapshot 5). Followers stop.
   */
  ended?: TeamEnd | undefined;
  description?: string | undefined;
  /** The lead's member name. */
  lead: string;
  members: MemberView[];
  /** Tasks in numeric id order (`metadata._internal` ones hidden). */
  tasks: TaskView[];
  /** Every known message, oldest first. */
  messages: MessageView[];
  counts: { unread: number; tasks: Record<TaskStatus, number> };
  /**
   * What the view cannot show, flagged instead of failing (issue 9 items 5, 6): e.g. a corrupt
   * inbox (`FILE_CORRUPT`, its member, the file and `fix`: the command that repairs it). The rest
   * of the team is shown. Empty when all is well.
   */
  problems: SnapshotProblem[];
}

/** One thing a snapshot could not read (see {@link TeamSnapshot.problems}). */
export interface SnapshotProblem {
  /** Stable error code (`FILE_CORRUPT`, …). */
  code: string;
  /** The member it concerns, when one. */
  member?: string | undefined;
  /** The file concerned, for humans. */
  path?: string | undefined;
  /** One sentence saying what is wrong. */
  message: string;
  /** The command that repairs it (without store options: callers add those). */
  fix?: string | undefined;
}

/** How a team ended (see {@link TeamSnapshot.ended}). */
export interface TeamEnd {
  /** The tombstone directory Claude Code moved the team to while removing it, when seen. */
  location?: string | undefined;
}

/** The raw parts a snapshot is built from. */
export interface SnapshotParts {
  team: string;
  config?: TeamConfig | undefined;
  exists: boolean;
  ended?: TeamEnd | undefined;
  /** Every known message, oldest first. */
  messages: readonly MessageView[];
  /** Tasks on disk in numeric id order. */
  tasks: readonly Task[];
  /** Members that left, by name (agentId when known). */
  departed: ReadonlyMap<string, string | undefined>;
  /** mailroom's member records, by member name (only those matching the roster entry are used). */
  records?: ReadonlyMap<string, MemberRecord> | undefined;
  /** Flags for what could not be read (see {@link TeamSnapshot.problems}). */
  problems?: readonly SnapshotProblem[] | undefined;
  /** The team's reader claims (TeamStore.readClaims), for presence. */
  claims?: readonly PresenceClaim[] | undefined;
  /** The instant presence is judged at (epoch ms; default `Date.now()`). */
  now?: number | undefined;
}

/** Builds the snapshot. Cost is linear in messages + tasks + members. */
export function buildSnapshot(parts: SnapshotParts): TeamSnapshot {
  const byId = indexTasks([...parts.tasks]);
  const tasks = parts.tasks.filter((t) => !isInternal(t)).map((t) => viewOf(t, byId));
  const lead = parts.config?.members.find((m) => m.agentId === parts.config?.leadAgentId)?.name ?? 'team-lead';
  const signals = groupSignals(parts.messages);
  const roster = parts.config?.members ?? [];
  const rows = roster.map((m) => memberRow(m, parts, true, tasks, signals));
  for (const [name, agentId] of parts.departed) {
    if (!roster.some((m) => m.name === name)) rows.push(memberRow({ name, agentId: agentId ?? '' }, parts, false, tasks, signals));
  }
  const counts = { unread: 0, tasks: { pending: 0, in_progress: 0, completed: 0 } as Record<TaskStatus, number> };
  for (const m of parts.messages) if (m.status === 'unread') counts.unread++;
  for (const t of tasks) counts.tasks[t.task.status]++;
  return { team: parts.team, exists: parts.exists, ...(parts.ended ? { ended: parts.ended } : {}), description: parts.config?.description, lead, members: rows, tasks, messages: parts.messages as MessageView[], counts, problems: [...(parts.problems ?? [])] };
}

interface Signals {
  sent: SignalMessage[];
  received: SignalMessage[];
  unread: number;
}

function groupSignals(messages: readonly MessageView[]): Map<string, Signals> {
  const out = new Map<string, Signals>();
  const get = (name: string) => out.get(name) ?? out.set(name, { sent: [], received: [], unread: 0 }).get(name)!;
  for (const m of messages) {
    get(m.entry.from).sent.push(m);
    const to = get(m.to);
    to.received.push(m);
    if (m.status === 'unread') to.unread++;
  }
  return out;
}

function memberRow(m: Pick<Member, 'name' | 'agentId'> & Partial<Member>, parts: SnapshotParts, inRoster: boolean, tasks: TaskView[], signals: Map<string, Signals>): MemberView {
  const s = signals.get(m.name) ?? { sent: [], received: [], unread: 0 };
  const presence = inRoster ? presenceFor(m, parts) : undefined;
  const isLead = m.agentId === parts.config?.leadAgentId;
  // A lead no mailroom runtime beats for has no presence to show: `unknown`, as in team show and list_members (issue 23).
  const verdict = isLead && inRoster && presence === undefined ? { state: 'unknown' as const, reason: 'no mailroom heartbeat: the lead runs outside mailroom' } : deriveMemberState({ inRoster, isActive: m.isActive, presence, sent: s.sent, received: s.received });
  return {
    name: m.name,
    agentId: m.agentId || undefined,
    isLead: m.agentId === parts.config?.leadAgentId,
    inRoster,
    state: verdict.state,
    stateReason: verdict.reason,
    ...(presence ? { presence } : {}),
    backendType: m.backendType,
    runtime: runtimeOf(m, parts),
    model: m.model,
    color: m.color,
    currentTask: currentTask(m.name, tasks),
    unread: s.unread,
    lastActivity: s.sent.at(-1)?.entry.timestamp,
  };
}

/** Presence of a member a mailroom runtime runs or ran (a claim or a matching member record), else undefined. */
function presenceFor(m: Pick<Member, 'name' | 'agentId' | 'joinedAt'>, parts: SnapshotParts): Presence | undefined {
  const claims = parts.claims ?? [];
  if (!claims.some((c) => c.member === m.name) && runtimeOf(m, parts) === undefined) return undefined;
  return presenceOf(m.name, claims, parts.now ?? Date.now());
}

function runtimeOf(m: Pick<Member, 'name' | 'agentId' | 'joinedAt'>, parts: SnapshotParts): string | undefined {
  const r = parts.records?.get(m.name);
  return r && recordIsFor(r, m) ? r.runtime : undefined;
}

function currentTask(name: string, tasks: TaskView[]): MemberView['currentTask'] {
  const owned = tasks.filter((v) => v.task.owner === name && v.task.status !== 'completed');
  const pick = owned.find((v) => v.task.status === 'in_progress') ?? owned[0];
  return pick ? { id: pick.task.id, subject: pick.task.subject, status: pick.task.status } : undefined;
}
