/**
 * The team store: the contract every backend of shared team state keeps (config, roster, inboxes,
 * tasks, journal, reader claims). The filesystem backend keeps it over Claude Code's Agent Teams
 * layout; the Redis backend over Redis keys and Lua scripts; both pass one contract suite
 * (test/contract/).
 *
 * The rule of this interface (docs/decisions.md "A team store of intents"): every mutating method is
 * **one named transition** that no caller composes. It validates, applies and journals its events in
 * one step, inside the backend — the filesystem backend holds its locks only inside a method, the
 * Redis backend runs one Lua script. Callers never hold a lock and never hand the store a callback.
 * Each transition returns the value it produced and the events it journalled
 * ({@link Transition}); a transition that changed nothing returns no events and writes nothing.
 *
 * Names are member names and task ids, never file names: a backend maps them to its own keys.
 * Everything that is machine-local (pids, logs, /proc) is in {@link HostStore}, not here.
 */
import type { PathLease } from '../protocol/path-lease.js';
import type { AcquireRequest, ReleaseRequest } from '../domain/path-leases.js';
import type { Member, TeamConfig } from '../protocol/config.js';
import type { TeamEventRecord } from '../protocol/events.js';
import type { InboxEntry } from '../protocol/inbox.js';
import type { MemberRecord, MemberRecordDraft } from '../protocol/member-record.js';
import type { SettingsPatch, TeamSettings } from '../protocol/settings.js';
import type { SettingsChange } from '../domain/settings.js';
import type { Refusal } from '../domain/events.js';
import type { DeadLetter } from '../domain/dead-letters.js';
import type { Task, TaskStatus } from '../protocol/task.js';
import type { TaskDraft, TaskPatch } from '../domain/task-patch.js';
import type { StoreIssue, StoreRepair } from './health.js';
import type { StoreSelection } from './selection.js';

/** The task shapes of {@link TeamStore.createTask} and {@link TeamStore.patchTask}: the domain's, one name each. */
export type { TaskDraft, TaskPatch } from '../domain/task-patch.js';

/** An opaque position in a team's event stream; only the backend that issued it understands it. */
export type Cursor = string & { readonly __cursor: unique symbol };

/** What a transition produced, and the events it journalled in the same step (oldest first). */
export interface Transition<T> {
  value: T;
  events: TeamEventRecord[];
}

/** Who acts and when; passed to every transition. */
export interface OpContext {
  /** Member name of the actor (journalled as `actor`); `user` for a person at the CLI without `--as`. */
  actor?: string | undefined;
  /** The instant of the operation, epoch ms (default `Date.now()`; tests inject a clock). */
  now?: number | undefined;
}

/** A team found in the store. */
export interface TeamRef {
  /** The team's `name` as stored in its config. */
  name: string;
}

/** A team whose config cannot be read (see {@link TeamStore.unreadableTeams}). */
export interface UnreadableTeam {
  /** Its name as far as the store can tell (its member records or journal; else its directory). */
  team: string;
  /** Where its config is, or belongs, for humans. */
  location: string;
  /** Why it cannot be read, e.g. `is not valid JSON (…)`. */
  detail: string;
  /**
   * Set when config.json is missing and the directory holds no inbox file either: no mail of the
   * team is hidden, so a command that picks "the only team" does not count it, and `team list`
   * notes it without failing; `doctor` still reports it (its --fix rebuilds the config from the
   * team's journal). Unset for a corrupt config, or a missing one beside inboxes.
   */
  noMail?: true;
}

/**
 * A team another client of the store is removing, so it will not come back (see
 * {@link TeamStore.teamRemoval}). Only the files backend reports one: Claude Code 2.1.332 renames
 * `teams/<team>` to a `*.deleted-<uuid>` tombstone at the end of its session, then removes it.
 */
export interface TeamRemoval {
  /** Where the team's data is while it goes, for humans (on files: the tombstone directory). */
  location: string;
}

/** A team moved aside by {@link TeamStore.deleteTeam}, restorable with {@link TeamStore.restoreTeam}. */
export interface DeletedTeam {
  team: string;
  /** Opaque id to pass to {@link TeamStore.restoreTeam}. */
  id: string;
  /** When it was deleted, epoch ms. */
  deletedAt: number;
  /** Where it went, for humans (a directory for the filesystem store, a key prefix for Redis). */
  location: string;
}

/** Options of {@link TeamStore.addMember}. */
export interface AddMemberOptions extends OpContext {
  /** Give the member the next palette color by roster position (when `member.color` is unset). */
  assignColor?: boolean;
  /**
   * Mark read the unread `shutdown_request`s in the member's inbox sent before its `joinedAt`: they
   * were for an earlier member of the name (docs/runtime.md "Shutdown").
   */
  retireEarlierShutdownRequests?: boolean;
  /**
   * mailroom's own record of the member (docs/format.md "Member records"), written in the same step
   * with the member's `agentId` and `joinedAt`; a record left by an earlier member of the name is
   * replaced. Members mailroom does not register (Claude Code's) have none.
   */
  record?: MemberRecordDraft | undefined;
}


/** A member change: each key set to its new value; `null` removes the key. */
export type MemberPatch = { [K in keyof Member]?: Member[K] | null };

/** What {@link TeamStore.removeMember} did. */
export interface RemovedMember {
  member: Member;
  /** Tasks it owned that were not completed: now pending with no owner. */
  unassigned: Task[];
}

/** One message to append: its recipient and the entry (built with `makeInboxEntry`). */
export interface OutgoingMessage {
  to: string;
  entry: InboxEntry;
}

/** A message as stored. */
export interface StoredMessage {
  to: string;
  /** The entry as stored: its `timestamp` may be later than the one given (see {@link TeamStore.appendMessages}). */
  entry: InboxEntry;
}

/** Options of {@link TeamStore.appendMessages}. */
export interface AppendOptions extends OpContext {
  /**
   * A retry with the same key stores nothing and returns the first call's messages with
   * `replayed: true`, also when both calls race. Keys are kept at least 24 h.
   */
  idempotencyKey?: string | undefined;
  /**
   * The team's {@link TeamStore.viewStamp} the sender read its view (config, settings, member
   * records) under: on a store that keeps stamps (Redis) the append compares it to the team's stamp
   * in its own step and, when they differ (a member removed, the policy or signing changed since),
   * stores nothing and throws VIEW_MOVED — so no message lands under a view older than a change
   * that completed before the append. The caller reads its view again and retries (the send use
   * case does, core/messages/send.ts). On files it is compared in the first recipient's locked
   * inbox step, right before the write: a change that completes between that comparison and the
   * write is not seen (docs/architecture.md "A send's view of its team"). Ignored by a store
   * without stamps. A retry that finds its first try (reply lost) stored replays it whatever the
   * stamp is now: that try ran under the view.
   */
  expectViewStamp?: string | undefined;
}

/** Result of {@link TeamStore.appendMessages}. */
export interface AppendResult {
  messages: StoredMessage[];
  /** True when this was a retry of an idempotency key already used: nothing was written. */
  replayed: boolean;
}

/**
 * Where one read of an inbox left off, for {@link TeamStore.readInboxChanges} (opaque; in memory
 * only, never saved: a process that starts again reads in full).
 */
export interface InboxMark {
  readonly __inboxMark: unique symbol;
}

/**
 * What {@link TeamStore.readInboxChanges} found: every entry (`full`), or only what changed since
 * the mark when the inbox changed by appends and read marks alone.
 */
export type InboxChanges =
  | { full: true; entries: InboxEntry[]; mark: InboxMark }
  | {
      full: false;
      /** Entries appended since the mark, in inbox order. */
      appended: InboxEntry[];
      /** `entryKey`s of entries already there at the mark that are read now and were unread then. */
      read: string[];
      mark: InboxMark;
    };

/** An inbox that exists in the store. */
export interface InboxRef {
  /** The member's name; for an inbox that belongs to no member, the name it is stored under. */
  name: string;
  /** False for an inbox whose name is not in the roster (e.g. Claude Code wrote to a mistyped name). */
  member: boolean;
}

/** Read history of an inbox kept outside the live inbox. */
export interface InboxHistory {
  /** Read entries moved to the inbox archive, oldest first (may repeat a live entry after a crash: merge by identity). */
  archived: InboxEntry[];
  /**
   * Entries salvaged when the store found the inbox unreadable and set it aside (repaired by
   * `mailroom doctor --fix`), that are not in the live inbox. The files backend fills it from the
   * corrupt copies it keeps beside the inbox (docs/format.md "Quarantine"); a backend that never
   * holds an unreadable inbox (Redis) returns `[]`. `mailroom inbox --all` shows them as `quarantined`.
   */
  setAside: InboxEntry[];
}

/**
 * A member {@link TeamStore.inboxlessMembers} flags: `NAME_TOO_LONG`, the store cannot key an
 * inbox by a name this long; `INBOX_SHARED`, the store keys its inbox as it keys an earlier
 * member's (`with`), so the two would read each other's messages.
 */
export interface InboxlessMember {
  member: string;
  code: 'NAME_TOO_LONG' | 'INBOX_SHARED';
  /** For `INBOX_SHARED`: the earlier member whose inbox it would share. */
  with?: string | undefined;
}

/** Options of {@link TeamStore.takeUnread}. */
export interface TakeOptions extends OpContext {
  /** Who takes (a reader claim token, or any id unique to this reader): recorded on the lease. */
  reader: string;
  /** Most entries to take (default: all). The rest stay unread. */
  limit?: number | undefined;
  /**
   * How long the entries stay handed out without an acknowledgement (ms, default 120 000); after
   * that they are unread again for the next take (the reader is presumed dead).
   */
  leaseMs?: number | undefined;
  /**
   * Mark the entries read in the same step and keep no lease: for a reader that consumes on
   * hand-out (an MCP tool result). Events: `delivery` delivered and read per entry.
   */
  acknowledge?: boolean | undefined;
  /**
   * Fence (docs/decisions.md "Acknowledged hand-out"): the reader claim token the caller holds.
   * When given, the take is refused with READER_FENCED (nothing handed out) unless that token
   * holds the member's reader claim, checked inside the same atomic step.
   */
  claim?: string | undefined;
}

/** Options of {@link TeamStore.acknowledge}. */
export interface AcknowledgeOptions extends OpContext {
  /** Only these entries (by `entryKey`) of the lease; default all. */
  keys?: readonly string[] | undefined;
  /** Fence, as {@link TakeOptions.claim}: refused with READER_FENCED (nothing marked) unless this token holds the member's claim. */
  claim?: string | undefined;
  /** {@link ArchiveOnRead.archiveRead}. */
  archiveRead?: boolean | undefined;
}

/**
 * A reader's leave to archive (docs/format.md "Inbox archive"; issue 24 item 4: archiving happens
 * beside sends, never inside one). A send never moves anything to the archive; a reader that marks
 * entries read may, in the same step, once the inbox has grown past the store's trigger.
 */
export interface ArchiveOnRead {
  /**
   * When the inbox has grown past the store's trigger, move its read head (the read entries before
   * the first unread one, those this step marked included) to the archive in the same step as the
   * marking. Files store: the live file over 64 KiB of text and a read head of at least 16 KiB
   * (`ARCHIVE_TRIGGER_BYTES`, `ARCHIVE_MIN_HEAD_BYTES`). The Redis store has no trigger (an append
   * there costs the same whatever the history) and moves nothing. Only a reader that knows no
   * Claude Code 2.1.109 in-process teammate reads this inbox may pass it (that reader marks entries
   * by array index: core/messages/inbox-archive.ts `autoArchiveAllowed`).
   */
  archiveRead?: boolean | undefined;
}

/** Options of {@link TeamStore.markRead}. */
export interface MarkReadOptions extends OpContext, ArchiveOnRead {}

/** Options of {@link TeamStore.archiveInbox}. */
export interface ArchiveOptions extends OpContext {
  /**
   * Only when the inbox has grown past the store's trigger (files store: as {@link ArchiveOnRead};
   * a smaller inbox is only looked at — a `stat`, no lock, nothing written). The Redis store has no
   * trigger and moves nothing. Without it, the read head moves whatever its size.
   */
  pastTrigger?: boolean | undefined;
  /**
   * Only these entries may move (by `entryKey`: `msg_id`, else the from/timestamp/text triple): the
   * head stops at the first read entry whose key is not in the set, checked under the inbox's lock.
   * The bridge passes the entries it has synced and saved (docs/bridge.md "Archiving"), so an entry
   * it has not yet copied to the other side never leaves the inbox before it is copied.
   */
  onlyKeys?: ReadonlySet<string> | undefined;
}

/** Entries handed out to one reader, exactly once, until acknowledged, released or expired. */
export interface Lease {
  /** Opaque lease id (empty when nothing was taken). */
  id: string;
  reader: string;
  /** Epoch ms after which un-acknowledged entries are unread again. */
  until: number;
  /** The entries handed out, in inbox order (with `acknowledge`: as stored after the step, `read: true`). */
  entries: InboxEntry[];
  /**
   * Per entry (same order): how many times it has been handed out, this take included — 1 the
   * first time, more for a redelivery (its earlier lease was released, expired, or voided when the
   * member's reader claim was taken over). Kept by the store beside the inbox, never in the entry.
   */
  deliveries: number[];
  /** Unread entries left for a next take: not handed out by this lease, nor held by another live one. */
  remaining: number;
  /**
   * The team's {@link TeamStore.viewStamp} as of this take's step (no earlier than the entries it
   * hands out), on a backend whose takes carry one ({@link TeamStore.takesCarryViewStamps}); absent
   * otherwise (and it may be absent on a take that handed out nothing). A reader that read config, settings and
   * member records under a stamp the store calls the same view ({@link TeamStore.sameView}) need
   * not read them again for these entries.
   */
  viewStamp?: string | undefined;
}


/**
 * What a take would hand out, seen by a read that takes nothing ({@link TeamStore.lookUnread}): for
 * a reader that prepares — even starts — its model request before its take commits, and acts on
 * nothing until the take handed out exactly these entries (issue 24: delivery latency).
 */
export interface UnreadLook {
  /** The inbox's unread entries, in inbox order. Leases are not read: a take may hand out fewer. */
  entries: InboxEntry[];
  /** The team's {@link TeamStore.viewStamp} right after the read that found them (as {@link Lease.viewStamp}); absent when none could be taken. */
  viewStamp?: string | undefined;
}

/** Options of {@link TeamStore.createTask}. */
export interface CreateTaskOptions extends OpContext {
  /** A retry with the same key creates nothing and returns the first task with `replayed: true`. */
  idempotencyKey?: string | undefined;
}

/** Options of {@link TeamStore.putTask}. */
export interface PutTaskOptions extends OpContext {
  /**
   * Compare-and-set: the task as the caller last read it (`null`: absent). When the stored task is
   * not that (same keys and values, as `changedKeys` compares them) nothing is written and
   * TASK_CONFLICT is thrown — so a mirror never overwrites a write it did not see (the bridge vs.
   * Claude Code's own TaskCreate/TaskUpdate). Omitted: no check.
   */
  expect?: Task | null | undefined;
}

/** Result of {@link TeamStore.createTask}. */
export interface CreatedTask {
  task: Task;
  replayed: boolean;
}

/** What to claim and for whom. */
export interface ClaimRequest {
  /** The claimant's member name. */
  claimant: string;
  /** A specific task; omit for the lowest-id ready task. */
  id?: string | undefined;
  /** Without `id`: first a pending, unblocked task already assigned to the claimant. */
  preferAssigned?: boolean | undefined;
  /** Refuse (AGENT_BUSY) while the claimant owns a task that is not completed. */
  busyCheck?: boolean | undefined;
}


/** Result of {@link TeamStore.patchTask}. */
export interface PatchedTask {
  task: Task;
  previous: Task;
}

/** A dependency: `blocked` cannot start until `blocker` is completed. */
export interface TaskEdge {
  blocked: string;
  blocker: string;
}

/** Who holds a member's reader claim: the one runtime that consumes its inbox. */
export interface ReaderHolder {
  /** What kind of runtime: a `mailroom agent` process, an MCP server, an in-process host. */
  kind: 'agent' | 'mcp' | 'in-process';
  /** Machine id ({@link HostStore.hostId}). */
  host: string;
  pid: number;
  /** Epoch ms. */
  startedAt: number;
}

/** A member's reader claim as stored, with its last heartbeat. */
export interface ReaderClaim extends ReaderHolder {
  member: string;
  /** Opaque token; only its holder knows it. Empty in {@link TeamStore.readClaims} results. */
  token: string;
  /**
   * Epoch ms of the last heartbeat (the claim itself counts as one), by the store's clock when it
   * landed ({@link TeamStore.readClock}; Redis `TIME`, a file's mtime), never the caller's.
   */
  lastBeatAt: number;
  /** What the holder last said it was doing. */
  state: 'working' | 'idle';
  /** The claim is dead after this long without a beat (ms); a new claim may then take it. */
  ttlMs: number;
}

/** Options of {@link TeamStore.unassignTasks}. */
export interface UnassignOptions extends OpContext {
  /** Only tasks with one of these statuses (default: every status but completed). */
  statuses?: readonly TaskStatus[];
  /** Only while this member's claim has had no beat after `lastBeatAt` (epoch ms, the store's clock). */
  ifSilent?: { member: string; lastBeatAt: number } | undefined;
}

/** Options of {@link TeamStore.claimReader}. */
export interface ClaimReaderOptions extends OpContext {
  /** Dead after this long without a beat (ms; default 15 000: three 5 s beats). */
  ttlMs?: number | undefined;
  /**
   * Take the claim over even though it looks live, but only if it is still held by exactly this
   * holder (compare-and-set): the caller proved that holder dead, e.g. its pid is gone on this host.
   */
  evict?: Pick<ReaderHolder, 'host' | 'pid' | 'startedAt'> | undefined;
}

/** A hint from {@link TeamStore.watch}: what to re-read. Names are member names and task ids. */
export type StoreHint =
  | { kind: 'config'; team: string }
  | { kind: 'inbox'; team: string; member: string }
  | { kind: 'task'; team: string; id?: string | undefined }
  | { kind: 'events'; team: string }
  | { kind: 'claims'; team: string; member?: string | undefined };

/** A page of events. */
export interface EventPage {
  /** Valid events after the cursor, oldest first (unsupported or torn ones are skipped). */
  events: TeamEventRecord[];
  /** Where to continue. */
  cursor: Cursor;
  /** True when the stream no longer holds the position asked for (replaced, trimmed): reading restarted at its start. */
  reset: boolean;
}

/** A running watch; `close()` stops it. */
export interface WatchHandle {
  close(): Promise<void>;
}

/** Options of {@link TeamStore.watch}. */
export interface WatchOptions {
  /**
   * Hint changes of the reader claims (`claims`; default true). False for a watcher none of whose
   * listeners reads presence (a `mailroom agent`'s own feed, issue 24 item 3): on files the
   * readers directory is then not watched at all, so the beat of every member (each renews its
   * claim every 5 s) no longer wakes every other member's process.
   */
  claims?: boolean | undefined;
}

/** One inbox of a {@link TeamImage}. */
export interface InboxImage {
  /** The member's name (or the name a non-member's inbox is stored under). */
  name: string;
  /** Live entries in inbox order, each with its own `read` and `timestamp` as stored. */
  entries: InboxEntry[];
  /** Read entries moved to the inbox archive, oldest first. */
  archived: InboxEntry[];
}

/**
 * A whole team as {@link TeamStore.importTeam} writes it: what `mailroom store copy` reads from
 * another store. Leases, reader claims and idempotency keys are runtime state and not part of it.
 */
export interface TeamImage {
  /** The config with its roster (`members`); the team is `config.name`. */
  config: TeamConfig;
  inboxes: InboxImage[];
  /** Tasks with their ids (decimal, no leading zero), in any order. */
  tasks: Task[];
  /** The highest task id ever used, exact decimal: at least every id in `tasks` ("0" when none). */
  highWatermark: string;
  /** mailroom's member records. */
  memberRecords: MemberRecord[];
  /** The journal, oldest first. */
  events: TeamEventRecord[];
}

/** Shared team state. Every method is safe to call from many processes (and machines) at once. */
export interface TeamStore {
  /** How this store was chosen: pass it to child processes (see `selectionArgs`). */
  readonly selection: StoreSelection;
  /** Where the store is, for humans (a directory, or a URL without its password). */
  readonly location: string;

  // Teams
  /** Every team (unreadable configs skipped with a warning; Claude Code's `*.deleted-<uuid>` tombstones never listed). */
  listTeams(): Promise<TeamRef[]>;
  /**
   * Teams {@link listTeams} skips because their config cannot be read (a corrupt config, or inboxes
   * without one), for `team list` and `doctor` to name (issue 23). `doctor --fix` rebuilds them.
   */
  unreadableTeams(): Promise<UnreadableTeam[]>;
  /** @throws TEAM_NOT_FOUND, FILE_CORRUPT */
  readConfig(team: string): Promise<TeamConfig>;
  /** Creates the team with `config` (its lead among `members`). Events: team created, then one member joined per member (the lead). @throws TEAM_EXISTS */
  createTeam(config: TeamConfig, ctx?: OpContext): Promise<Transition<TeamConfig>>;
  /**
   * Moves config, roster, inboxes, tasks, member records and journal aside, restorable. Event: team deleted (it goes
   * aside with the journal: a team re-created under the name starts with an empty history).
   * @throws TEAM_NOT_FOUND
   */
  deleteTeam(team: string, ctx?: OpContext): Promise<Transition<DeletedTeam>>;
  /** Teams moved aside by {@link deleteTeam}, newest first (of one name, or all). */
  listDeletedTeams(team?: string): Promise<DeletedTeam[]>;
  /**
   * Set while another client is removing the team: it will not come back. Undefined otherwise.
   * The files backend sees Claude Code 2.1.332's tombstone of the team holding a config of the same
   * lead session (a tombstone of an earlier team of the name does not count); Redis, which no
   * other client writes, always answers undefined.
   */
  teamRemoval(team: string): Promise<TeamRemoval | undefined>;
  /** Brings a deleted team back, its journal and member records included. Event: team restored. @throws TEAM_EXISTS (a team of that name exists), TEAM_NOT_FOUND (no such id) */
  restoreTeam(id: string, ctx?: OpContext): Promise<Transition<TeamConfig>>;

  /**
   * Bulk import: creates the team `image.config.name` whole, in one step, as the image holds it —
   * every task keeps its id, the high-water mark is set (the next created task gets the id after
   * it), inbox entries keep their order, timestamps and read state, member records and the journal
   * come along (events as given, oldest first; a backend gives them new stream positions). The
   * imported journal is not returned: the transition's own `events` are `[]`. Watchers get hints
   * for the config, every inbox and the task board.
   * @throws TEAM_EXISTS (the team exists, or files a team of that name left behind do: nothing is
   * written), INVALID_ARGUMENT (a task id that is not decimal, repeated, or beyond what the backend
   * keeps — Redis: a signed 64-bit integer; a high-water mark below a task id; an inbox named twice)
   */
  importTeam(image: TeamImage, ctx?: OpContext): Promise<Transition<TeamConfig>>;

  // Roster
  /**
   * Adds a member, and with `options.record` its member record. Event: member joined.
   * @throws TEAM_NOT_FOUND, MEMBER_EXISTS (same name, compared case-insensitively), FILE_CORRUPT
   * (with `record`: the stored record of that name does not parse; it is never overwritten, and
   * nothing is written)
   */
  addMember(team: string, member: Member, options?: AddMemberOptions): Promise<Transition<Member>>;
  /** Changes a member's keys in place (unknown keys kept). No write and no event when nothing changes. @throws MEMBER_NOT_FOUND */
  updateMember(team: string, name: string, patch: MemberPatch, ctx?: OpContext): Promise<Transition<Member>>;
  /**
   * Removes a member (by name or agentId; never the lead) and, in the same step, unassigns its tasks
   * that are not completed (owned by its name or agentId: owner dropped, status pending), and its
   * member record. `undefined` (no events) when absent or the lead. Events: member left, then a task
   * updated per task.
   */
  removeMember(team: string, nameOrAgentId: string, ctx?: OpContext): Promise<Transition<RemovedMember | undefined>>;

  /**
   * mailroom's member records of the team, in member-name order (records that do not parse are
   * skipped: `scanHealth` reports them). A record whose `agentId`/`joinedAt` differ from the roster
   * entry of its name is about an earlier member (`recordIsFor`). A deleted team's move with it.
   */
  readMemberRecords(team: string): Promise<MemberRecord[]>;

  /**
   * Journals a refused attempt (a `refused` event, v3: who tried what, the rule that refused, the
   * error code; docs/journal.md); nothing else changes. `ctx.actor` is who attempted it.
   * @throws TEAM_NOT_FOUND
   */
  recordRefusal(team: string, refusal: Refusal, ctx?: OpContext): Promise<Transition<void>>;

  // Team settings (mailroom's own: policy, signing; docs/approvals.md)
  /**
   * The team's settings (`{v: 1}` when it never set any: open, as Claude Code).
   * @throws TEAM_NOT_FOUND, FILE_CORRUPT (a settings document that does not parse: never overwritten)
   */
  readSettings(team: string): Promise<TeamSettings>;
  /**
   * Applies `patch` (keys set, `null` removes; src/domain/settings.ts) in one step, journalling a
   * `settings` event naming the changed keys (none written when nothing changed).
   * @throws TEAM_NOT_FOUND, INVALID_ARGUMENT (the result is not valid settings), FILE_CORRUPT
   */
  updateSettings(team: string, patch: SettingsPatch, ctx?: OpContext): Promise<Transition<SettingsChange>>;

  // Advisory path leases (docs/leases.md)
  /**
   * The team's live path leases, oldest first; leases that ended (holder left, dead, or past its
   * TTL with no beating runtime) are dropped and journalled `expired` in the same step.
   * @throws TEAM_NOT_FOUND, FILE_CORRUPT
   */
  listPathLeases(team: string, ctx?: OpContext): Promise<Transition<PathLease[]>>;
  /**
   * Leases `req.paths` to `req.holder` as one lease with a fresh fencing token, all or nothing,
   * judged by the store's clock (src/domain/path-leases.ts). With `force` (the lead) conflicting
   * leases are taken over, each journalled `forced`.
   * @throws LEASE_HELD naming every conflicting lease (nothing changes), INVALID_ARGUMENT, TEAM_NOT_FOUND
   */
  acquirePathLease(team: string, req: AcquireRequest, ctx?: OpContext): Promise<Transition<PathLease>>;
  /** Releases the holder's named leases, or all of them. @throws LEASE_NOT_FOUND, TEAM_NOT_FOUND */
  releasePathLeases(team: string, req: ReleaseRequest, ctx?: OpContext): Promise<Transition<PathLease[]>>;

  // Inboxes
  /**
   * Appends messages; every recipient is checked before anything is written (MEMBER_NOT_FOUND, no
   * inbox created) — after the idempotency key, when one is given: a retry of an append that stored
   * its messages replays them even if a recipient was removed since. Within one inbox, timestamps are assigned so that they never decrease in file
   * order and (`from`, `timestamp`, `text`) stays unique (later by whole ms where needed).
   * @throws MEMBER_NOT_FOUND, FILE_CORRUPT, and when the store does not answer in time: LOCK_TIMEOUT
   * (files backend: an inbox lock not taken within its wait) or STORE_UNAVAILABLE (Redis: no
   * answer within `OpenOptions.storeTimeoutMs`)
   */
  appendMessages(team: string, messages: readonly OutgoingMessage[], options?: AppendOptions): Promise<Transition<AppendResult>>;
  /**
   * The messages an append with this idempotency key stored — what a retry with the key returns —
   * or undefined when no append with it stored anything within the key's lifetime (24 h at least).
   * A retry is answered by the key before the recipients are checked: a recipient removed after the
   * first call stored its messages does not turn the retry into MEMBER_NOT_FOUND (appendMessages
   * does the same). @throws TEAM_NOT_FOUND, INVALID_ARGUMENT (an empty key)
   */
  readAppended(team: string, idempotencyKey: string): Promise<StoredMessage[] | undefined>;
  /** Valid entries of an inbox in order (missing → `[]`). @throws FILE_CORRUPT */
  readInbox(team: string, member: string): Promise<InboxEntry[]>;
  /**
   * What changed in an inbox since an earlier call's `mark` (issue 24 item 4: a follower — the
   * bridge — whose cost per change must not grow with the inbox's history). Without `since`, or
   * when the inbox changed otherwise (an entry removed, archived, reordered, edited, or turned
   * unread; the inbox replaced or gone), every valid entry, as {@link readInbox} (`full: true`);
   * else only the entries appended since and the keys of entries turned read — never a change
   * missed. On files, only the appended tail of the file is parsed, after checking that the rest is
   * byte for byte what the mark read (any rewrite of an entry — a read mark too — reads in full);
   * on Redis, the entries past the mark's position and the unread set. Absent on a backend without
   * one: the caller reads in full. @throws FILE_CORRUPT
   */
  readInboxChanges?(team: string, member: string, since?: InboxMark): Promise<InboxChanges>;
  /** The inbox's archived entries and those set aside from an unreadable copy of it. */
  readInboxHistory(team: string, member: string): Promise<InboxHistory>;
  /** Every inbox that exists, by member name. */
  listInboxes(team: string): Promise<InboxRef[]>;
  /**
   * Hands out unread entries not already handed out, exactly once across readers and processes:
   * selecting and marking them taken is one step. Events: `delivery` delivered, one per entry.
   * @throws READER_FENCED (`claim` given and no longer the member's reader claim: nothing taken)
   */
  takeUnread(team: string, member: string, options: TakeOptions): Promise<Transition<Lease>>;
  /**
   * A read of what {@link takeUnread} would hand out right now, without a lock or a lease: the
   * unread entries (empty when there are none) and the view stamp after them. Hands out nothing and
   * guarantees nothing: only a take hands entries out, and a reader that looked first must compare
   * the take's entries with the look's before anything acts on them. Present where a take costs
   * more than a read (files: a lock, a sidecar rename); absent on Redis, whose take is one round
   * trip like the read (its looks come with the append's hint instead: {@link hintedLook}). @throws FILE_CORRUPT (the inbox)
   */
  lookUnread?(team: string, member: string): Promise<UnreadLook>;
  /**
   * Starts keeping the looks the store's appends publish for `member` alone (Redis: the member's
   * own channel, src/store/redis/inbox-looks.ts), for {@link hintedLook}; until the handle is
   * closed. Resolves once asked of the server, not once confirmed (a user granted before these
   * channels existed is refused, and no look ever comes: the reader takes first, as without).
   * Absent where a look is a read ({@link lookUnread}).
   */
  watchInboxLooks?(team: string, member: string): Promise<WatchHandle>;
  /**
   * The look the last append to `member`'s inbox published (as {@link lookUnread}'s: what a take
   * would hand out, with the view stamp the send was checked under), once; undefined when none
   * came since the member's last take, or it was dropped (it came while a take ran). A guess that
   * anyone able to publish could forge, like a look: only a take hands out, and a reader that
   * acts must compare the take's entries and stamp with the look's first. No store call.
   */
  hintedLook?(team: string, member: string): UnreadLook | undefined;
  /**
   * Marks a lease's entries read (all, or those in `keys`); the lease ends once it holds nothing
   * more (acknowledging some `keys` keeps it for the others). An entry its reader
   * removed meanwhile (Claude Code 2.1.332) counts as read. A late acknowledgement of an expired
   * lease still marks its entries, except those another live lease took meanwhile; an unknown (or
   * already ended) lease marks nothing. Events: `delivery` read per entry marked. @returns how many turned read
   * @throws READER_FENCED (`claim` given and no longer the member's reader claim: nothing marked)
   */
  acknowledge(team: string, member: string, leaseId: string, options?: AcknowledgeOptions): Promise<Transition<number>>;
  /** Puts a lease's entries back to unread at once (the model call that carried them failed). Events: `delivery` released per entry still unread. @returns how many */
  release(team: string, member: string, leaseId: string, ctx?: OpContext): Promise<Transition<number>>;
  /** Marks entries read by identity (`entryKey`): shown to a person. @returns how many changed */
  markRead(team: string, member: string, keys: readonly string[], options?: MarkReadOptions): Promise<Transition<number>>;
  /**
   * Moves the read head of an inbox (the read entries before the first unread one) to its archive
   * now, under the inbox's lock: the archive is written (files: fsynced) before the entries leave
   * the inbox, so a crash in between repeats an entry, never loses one. Unread entries never move.
   * @returns how many entries moved
   */
  archiveInbox(team: string, member: string, options?: ArchiveOptions): Promise<Transition<number>>;
  /** Moves a whole inbox aside (e.g. one of a non-member). @returns where it went, for humans, or undefined when absent */
  setInboxAside(team: string, name: string, ctx?: OpContext): Promise<Transition<string | undefined>>;

  // Dead letters (issue 11 item 4; docs/format.md "Dead letters")
  /**
   * Moves the unread entries (but `shutdown_request`s: `isDeadLetter`) of the inbox of `member`,
   * who is no longer in the roster, to the team's dead-letter store: each is added there (once per id: a repeated call adds nothing) and
   * then marked read in the inbox, where Claude Code's readers skip it. A no-op (`[]`, nothing
   * written) while `member` is in the roster (it rejoined), and for a missing or empty inbox.
   * Events: `delivery` dead-lettered per entry moved. Called by core right after
   * {@link removeMember} (docs/decisions.md "Dead letters").
   * @returns the dead letters added, in inbox order
   * @throws TEAM_NOT_FOUND, FILE_CORRUPT (the inbox or the dead-letter store does not parse: never overwritten)
   */
  deadLetterInbox(team: string, member: string, ctx?: OpContext): Promise<Transition<DeadLetter[]>>;
  /** The team's dead letters, oldest first. @throws TEAM_NOT_FOUND, FILE_CORRUPT */
  listDeadLetters(team: string): Promise<DeadLetter[]>;
  /**
   * Removes dead letter `id`, exactly once across racing callers: the one that removed it gets it,
   * every other `undefined`. No events (its re-sent message is journalled by its append).
   * @throws TEAM_NOT_FOUND, FILE_CORRUPT
   */
  removeDeadLetter(team: string, id: string, ctx?: OpContext): Promise<Transition<DeadLetter | undefined>>;
  /**
   * A member back in the roster under a departed name gets its dead letters back (issue 23): each
   * whose entry is still in its inbox (marked read when it was dead-lettered) is unread there again
   * and removed from the dead letters, in one transition, so the member never sees as read what it
   * never read and a later retry re-sends nothing twice. One whose entry left the inbox (archived)
   * stays a dead letter for `dead-letter retry`. Nothing happens while `member` is not in the roster.
   * Events: `delivery` released per entry back to unread.
   * @returns the dead letters redelivered
   * @throws TEAM_NOT_FOUND, FILE_CORRUPT
   */
  redeliverDeadLetters(team: string, member: string, ctx?: OpContext): Promise<Transition<DeadLetter[]>>;

  // Tasks
  /** Valid tasks in numeric id order (invalid ones skipped, as Claude Code does; warned once). */
  listTasks(team: string): Promise<Task[]>;
  /** One task, `undefined` when missing or invalid; `strict` throws FILE_CORRUPT for an invalid one. */
  readTask(team: string, id: string, options?: { strict?: boolean }): Promise<Task | undefined>;
  /** The highest task id ever used, exact decimal ("0" when none). */
  readHighWatermark(team: string): Promise<string>;
  /**
   * Creates a task with the next id (never reused) and links its blockers both ways. Events: task
   * created, then task updated per blocker. @throws TEAM_NOT_FOUND, TASK_NOT_FOUND (a blocker)
   */
  createTask(team: string, draft: TaskDraft, options?: CreateTaskOptions): Promise<Transition<CreatedTask>>;
  /**
   * Claims a task (owner = claimant, status in_progress): exactly one winner among racing claims.
   * Every claim issues the task's next fencing token (`fencingToken`, one more than before; a
   * re-claim by its owner too), returned on the task: the claimant's writes carry it
   * ({@link TaskPatch.fencingToken}). `undefined` when no task is ready (claims without `id` only).
   * @throws TASK_NOT_FOUND, TASK_ALREADY_CLAIMED, TASK_ALREADY_RESOLVED, TASK_BLOCKED, AGENT_BUSY (each with `details.reason`)
   */
  claimTask(team: string, request: ClaimRequest, ctx?: OpContext): Promise<Transition<Task | undefined>>;
  /**
   * Changes a task's fields. Starting or completing a task with an open blocker is refused
   * (TASK_BLOCKED); `status: in_progress` on an unowned task without `owner` makes `ctx.actor` the owner.
   * A change that gives the task a new owner issues its next fencing token.
   * A patch that changes nothing writes nothing and journals nothing.
   * @throws TASK_NOT_FOUND, TASK_FENCED (`fencingToken` stale), TASK_BLOCKED, TASK_CONFLICT (`expect` not met)
   */
  patchTask(team: string, id: string, patch: TaskPatch, ctx?: OpContext): Promise<Transition<PatchedTask>>;
  /** Adds dependencies on both tasks of each edge; a cycle is refused and nothing changes. @throws TASK_NOT_FOUND, TASK_CYCLE */
  linkTasks(team: string, edges: readonly TaskEdge[], ctx?: OpContext): Promise<Transition<Task[]>>;
  /** Removes dependencies from both tasks of each edge (absent edges, and an end that no longer exists, are ignored). @throws TASK_NOT_FOUND (neither end of an edge exists) */
  unlinkTasks(team: string, edges: readonly TaskEdge[], ctx?: OpContext): Promise<Transition<Task[]>>;
  /** Deletes a task (its id is never reused) and strips it from every other task's links. @throws TASK_NOT_FOUND */
  deleteTask(team: string, id: string, ctx?: OpContext): Promise<Transition<Task>>;
  /**
   * Writes `task` as it is under its id: a mirror of another store's board (`mailroom bridge`,
   * docs/bridge.md "Tasks"). Created when absent, replaced when different — every field, its links
   * as given (the caller mirrors a whole board) — and the high-water mark raised to its id. No write
   * and no event when equal. Events: task created, or task updated with the changed keys.
   * With `expect`, a compare-and-set ({@link PutTaskOptions.expect}).
   * @throws TEAM_NOT_FOUND, FILE_CORRUPT (the stored task does not parse: never overwritten), INVALID_ARGUMENT (`task` is not a valid task), TASK_CONFLICT (`expect` given and not met)
   */
  putTask(team: string, task: Task, ctx?: PutTaskOptions): Promise<Transition<Task>>;
  /**
   * Puts `owner`'s tasks with one of `statuses` (default: not completed) back to pending with no owner.
   * With `ifSilent`, only while `ifSilent.member`'s reader claim has had no beat after
   * `ifSilent.lastBeatAt` (the store's clock; no claim counts as silent), re-checked in the same step
   * as each task's change: a dead-member sweep's judgement does not outlive a beat that landed after it.
   */
  unassignTasks(team: string, owner: string, options?: UnassignOptions): Promise<Transition<Task[]>>;

  // Reader claims: one consumer per member (docs/runtime.md "One reader per member")
  /**
   * Takes the member's reader claim for `holder`, unless a live one exists (last beat within its
   * ttl). The leases taken by the holder it replaces (its token as `reader`) are released at once;
   * their `delivery released` events are the transition's. The new claim's state is `idle`.
   * @throws TEAMMATE_RUNNING naming the live holder (`details.holder`: kind, host, pid, startedAt), MEMBER_NOT_FOUND
   */
  claimReader(team: string, member: string, holder: ReaderHolder, options?: ClaimReaderOptions): Promise<Transition<ReaderClaim>>;
  /** Renews the claim and records its state. @throws TEAMMATE_RUNNING when `token` no longer holds it (taken over after it was presumed dead) */
  beat(team: string, member: string, token: string, state: ReaderClaim['state'], ctx?: OpContext): Promise<Transition<ReaderClaim>>;
  /** Gives the claim up (no-op when `token` does not hold it); the leases it took are released (their events returned). */
  releaseReader(team: string, member: string, token: string, ctx?: OpContext): Promise<Transition<void>>;
  /** Every claim as stored (dead ones included; tokens blanked). */
  readClaims(team: string): Promise<ReaderClaim[]>;
  /**
   * The store's clock now (epoch ms), the one beats are stamped with ({@link ReaderClaim.lastBeatAt})
   * and members judged dead by (issue 21 item 3): Redis `TIME`; on files, the mtime the filesystem
   * gives a file this call touches in the team's reader-claim directory. Never the caller's clock.
   */
  readClock(team: string): Promise<number>;

  /**
   * Members of the roster this backend cannot give an inbox of their own (issue 9 item 6), the
   * later member in the roster flagged. The files backend reports names whose inbox file name
   * would be too long (`NAME_TOO_LONG`) and names Claude Code's file-name sanitiser maps to
   * another member's inbox (`INBOX_SHARED`: `café`/`cafè` → `caf-.json`). Redis keys inboxes by
   * the exact name: always empty there. @throws TEAM_NOT_FOUND, FILE_CORRUPT
   */
  inboxlessMembers(team: string): Promise<InboxlessMember[]>;

  // Events
  /** Events after `since` (default: from the start). */
  readEvents(team: string, options?: { since?: Cursor | undefined; limit?: number | undefined }): Promise<EventPage>;
  /** Journals events observed in the store (made by other writers, e.g. Claude Code), as given. */
  recordObserved(team: string, events: readonly TeamEventRecord[]): Promise<void>;
  /** Hints to re-read, until closed; resolves once live (every change after that is hinted; hints may coalesce). */
  watch(team: string, listener: (hint: StoreHint) => void, options?: WatchOptions): Promise<WatchHandle>;
  /**
   * A cheap fingerprint of what one member's runtime re-reads on its safety-net tick (issue 24
   * item 3): on files, the `stat` of config.json, the member's inbox file, the task directory and
   * `.highwatermark` — no read, no parse. Equal stamps mean none of those files was replaced,
   * created, removed or (to the filesystem's timestamp resolution) rewritten. A task file rewritten
   * in place leaves the directory as it was: the watch hints that one, and the caller re-reads in
   * full now and then all the same. Absent on a backend without one (Redis): the caller re-reads.
   */
  changeStamp?(team: string, member: string): Promise<string>;
  /**
   * An opaque stamp of what a reader's guard and system prompt read beside a take (issue 24: the
   * delivery path): the team's config (roster, lead, every member's document), its settings and
   * its member records. Equal stamps read at two instants mean none of them changed in between
   * (on Redis: versions that only grow, within a generation never reused; no document is read).
   * On Redis every {@link takeUnread} returns the stamp of its own step ({@link Lease.viewStamp}),
   * so a reader that read those under a stamp taken before its reads knows, from the take's reply
   * alone, whether they still hold. A send reads its view under it and appends with
   * {@link AppendOptions.expectViewStamp}. On files it is one `stat` per file of the view
   * (src/store/fs/view-stamp.ts: for sends only; takes carry none). Absent on a backend without
   * one: the caller re-reads. @throws TEAM_NOT_FOUND
   */
  viewStamp?(team: string): Promise<string>;
  /**
   * True when every {@link takeUnread} returns {@link Lease.viewStamp} and a stamp costs no
   * document read (Redis): then a reader's or a sender's kept view of the team pays (a teammate's
   * TeamView, core/teams/sender-view.ts). Absent on files (its stamp is for sends' checks only).
   */
  readonly keepsViews?: true;
  /**
   * True when every {@link takeUnread} that hands out entries returns {@link Lease.viewStamp}: a
   * reader's kept view of the team (a teammate's TeamView, runtime/delivery/team-view.ts) pays.
   * Redis (the stamp comes with the take's reply) and files (src/store/fs/view-stamp.ts: three
   * `stat`s and a digest of config.json, taken after the take's step). Absent: the reader re-reads.
   */
  readonly takesCarryViewStamps?: true;
  /**
   * True when two of this store's view stamps stand for the same view: nothing a sender or a
   * reader's guard reads (roster, lead, member documents, settings, member records) changed between
   * them. Absent: equal strings. On files, stamps whose config.json stats differ are the same view
   * when everything else is equal and the config digests (members' `isActive` left out) match:
   * a teammate flips its own `isActive` at every turn.
   */
  sameView?(a: string, b: string): boolean;

  // Health
  /**
   * Problems in the stored data itself, each of a {@link StoreIssue} kind the backend may report
   * (corrupt records, leftovers of killed writers, a risky server setting; see src/store/health.ts).
   */
  scanHealth(): Promise<StoreIssue[]>;
  /** Repairs one issue after re-checking it; never overwrites what it could not parse. */
  repairHealth(issue: StoreIssue): Promise<StoreRepair>;

  /** Releases connections and watches (a no-op for the filesystem store). */
  close(): Promise<void>;
}
