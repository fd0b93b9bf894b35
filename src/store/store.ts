/**
 * The store API: the only way mailroom reads or writes team state. The filesystem backend
 * ({@link FsStore}) implements it over Claude Code's on-disk format; a second backend (e.g. Redis,
 * for teams that span machines) can implement the same interface.
 *
 * Mutating methods take a callback that changes the value *in place*; the store runs it between
 * lock → read → validate and write → unlock. A callback that throws aborts the change: nothing is
 * written.
 */
import type { TeamConfig } from '../protocol/config.js';
import type { InboxEntry } from '../protocol/inbox.js';
import type { Task } from '../protocol/task.js';
import type { StoreIssue, StoreRepair } from './health.js';
import type { ProcessRecord } from '../protocol/process.js';
import type { CommandRecord } from '../protocol/command.js';
import type { JournalEvent } from '../protocol/journal.js';
import type { MemberRecordStore } from './member-records.js';

/** A team found in the store. */
export interface TeamRef {
  /** The team's `name` as stored in its config. */
  name: string;
  /** Where the team lives (a directory for the filesystem store). */
  location: string;
}

/** A team Claude Code is removing (see {@link Store.teamRemoval}). */
export interface TeamRemoval {
  /** Where the team went while it is removed (its `*.deleted-<uuid>` tombstone directory). */
  location: string;
}

/** A change seen in the store: a hint to re-read, never the data itself. */
export type StoreChange =
  | { kind: 'config'; team: string }
  | { kind: 'inbox'; team: string; agent: string }
  | { kind: 'task'; team: string; id?: string };

/** Result of {@link Store.readJournal}. */
export interface JournalRead {
  /** Valid events after the requested cursor, in file order (torn or invalid lines are skipped). */
  events: JournalEvent[];
  /** Opaque position to pass as `since` next time (a byte offset for the filesystem store). */
  cursor: number;
  /** True when the journal was shorter than `since` (replaced by hand): reading restarted at the start. */
  reset: boolean;
}

/** An open, append-only log file of a process-backend teammate. */
export interface AgentLog {
  /** Absolute path of the log file. */
  path: string;
  /** File descriptor, for a child process's stdout/stderr. */
  fd: number;
  /** Its size in bytes when opened: where a child started now begins writing. */
  size: number;
  /** Closes this process's descriptor (a child keeps its own copy). */
  close(): Promise<void>;
}

/** Options of {@link Store.appendToInbox}. */
export interface InboxAppendOptions {
  /**
   * Allow this append to move the read entries at the head of the inbox to the inbox's archive
   * when the live file has grown past the store's threshold (64 KiB for the filesystem store), so
   * a send's cost does not grow with the read history. Unread entries are never moved or
   * reordered, but their array positions shift: do not allow it for readers that remember entries
   * by position (Claude Code 2.1.109 in-process teammates).
   */
  archiveRead?: boolean;
}

/** A running watch; `close()` stops it and releases its resources. */
export interface WatchHandle {
  close(): Promise<void>;
}

/** Operations available only while the task-list lock is held. */
export interface LockedTaskList {
  /** The id the next task gets: max(file ids, high-water mark) + 1, as a decimal string. */
  nextId(): Promise<string>;
  /** Writes a brand-new task file (its id must come from {@link nextId}). */
  writeNew(task: Task): Promise<void>;
  /** Deletes a task: raises the high-water mark to its id, then removes the file. No-op if gone. */
  delete(id: string): Promise<void>;
}

/**
 * Team, inbox and task persistence. All methods are safe to call from many processes at once.
 * Member records (mailroom's own per-member data) are {@link MemberRecordStore}.
 */
export interface Store extends MemberRecordStore {
  /** Human-readable location of the store (the root directory for the filesystem store). */
  readonly root: string;

  /** Every team (directories without a readable config, and Claude Code's `*.deleted-<uuid>` tombstones, are skipped). */
  listTeams(): Promise<TeamRef[]>;
  /**
   * Set while Claude Code 2.1.332 is removing the team at the end of its session (it renames the
   * team directory to a `*.deleted-<uuid>` tombstone, then removes that): the team will not come
   * back. Undefined otherwise, also for a tombstone of an earlier team of the same name.
   */
  teamRemoval(team: string): Promise<TeamRemoval | undefined>;
  /** @throws TEAM_NOT_FOUND, FILE_CORRUPT */
  readConfig(team: string): Promise<TeamConfig>;
  /** Creates the team config and its task list. @throws TEAM_EXISTS */
  createTeam(config: TeamConfig): Promise<void>;
  /** Locked read-modify-write of config.json. @throws TEAM_NOT_FOUND, FILE_CORRUPT, LOCK_TIMEOUT */
  updateConfig<T>(team: string, change: (config: TeamConfig) => T | Promise<T>): Promise<T>;
  /**
   * Removes the team's config, inboxes and task list, and moves mailroom's history of it (journal,
   * inbox archive) aside, so a team re-created under the name starts with an empty history.
   */
  deleteTeam(team: string): Promise<void>;

  /** Valid entries of an inbox in file order (missing inbox → `[]`). @throws FILE_CORRUPT */
  readInbox(team: string, agent: string): Promise<InboxEntry[]>;
  /**
   * Appends entries under the inbox lock, creating the inbox as `[]` first. Timestamps are bumped by
   * whole milliseconds where needed so (`from`, `timestamp`, `text`) stays unique. Returns the
   * entries as stored. @throws FILE_CORRUPT, LOCK_TIMEOUT
   */
  appendToInbox(team: string, agent: string, entries: InboxEntry[], options?: InboxAppendOptions): Promise<InboxEntry[]>;
  /**
   * Entries moved out of the inbox into its archive (oldest first; see {@link InboxAppendOptions}).
   * After a crash an entry can be in both the archive and the inbox: callers merge by identity.
   */
  readInboxArchive(team: string, agent: string): Promise<InboxEntry[]>;
  /**
   * Moves the read entries at the head of the inbox to its archive now, under the inbox lock.
   * @returns how many were moved. @throws FILE_CORRUPT, LOCK_TIMEOUT
   */
  archiveInbox(team: string, agent: string): Promise<number>;
  /** Locked read-modify-write of an existing inbox; `change` mutates valid entries in place. */
  updateInbox<T>(team: string, agent: string, change: (entries: InboxEntry[]) => T | Promise<T>): Promise<T>;
  /** Names of agents that have an inbox file. */
  listInboxes(team: string): Promise<string[]>;
  /**
   * Renames an inbox aside (filesystem store: `<agent>.json.orphaned-<stamp>`) under its lock, e.g.
   * the inbox of a name that is not a member. @returns where it went, or undefined when absent.
   */
  moveInboxAside(team: string, agent: string): Promise<string | undefined>;

  /** Valid tasks in numeric id order (invalid files are treated as absent, as Claude Code does). */
  listTasks(team: string): Promise<Task[]>;
  /**
   * One task, or `undefined` when missing or invalid (as Claude Code reads it). With `strict`, an
   * invalid file throws FILE_CORRUPT naming it instead. @throws FILE_CORRUPT (strict only)
   */
  readTask(team: string, id: string, options?: { strict?: boolean }): Promise<Task | undefined>;
  /** Locked read-modify-write of one task. @throws TASK_NOT_FOUND, LOCK_TIMEOUT */
  updateTask<T>(team: string, id: string, change: (task: Task) => T | Promise<T>): Promise<T>;
  /** Runs `fn` under the task-list lock (create, delete, busy-checked claims, dependency edits). */
  withTaskList<T>(team: string, fn: (list: LockedTaskList) => Promise<T>): Promise<T>;
  /** The high-water mark (0 when never written). */
  readHighWatermark(team: string): Promise<number>;

  /**
   * Reports changes to the team's config, inboxes and tasks until closed. Resolves once the watch
   * is live: any change after that is reported (events may coalesce; re-read on each).
   */
  watch(team: string, listener: (change: StoreChange) => void): Promise<WatchHandle>;

  /** Problems in the stored files themselves (`mailroom doctor`): corrupt files, temp files, stale locks. */
  scanHealth(): Promise<StoreIssue[]>;
  /** Repairs one issue from {@link scanHealth} after re-checking it; never overwrites a file. */
  repairHealth(issue: StoreIssue): Promise<StoreRepair>;

  /**
   * Appends events to the team's journal (docs/format.md "Journal"), safe from many processes at
   * once. The journal outlives a team that Claude Code removes; `mailroom team delete`
   * ({@link deleteTeam}) moves it to `<root>/mailroom/deleted/`.
   */
  appendJournal(team: string, events: readonly JournalEvent[]): Promise<void>;
  /** Journal events after cursor `since` (default: from the start); a missing journal is empty. */
  readJournal(team: string, options?: { since?: number }): Promise<JournalRead>;

  /** The pid record of a teammate's `mailroom agent` process, or undefined when missing. @throws FILE_CORRUPT (unparseable or not a process record: never taken for absent) */
  readProcessRecord(team: string, agent: string): Promise<ProcessRecord | undefined>;
  /** Writes (replaces) the pid record of a teammate's `mailroom agent` process. */
  writeProcessRecord(team: string, agent: string, record: ProcessRecord): Promise<void>;
  /**
   * Writes `record` as the agent's pid record unless another process holds it: atomically (under a
   * lock) with respect to other claims. A current record of another pid is kept when
   * `isStale(current)` resolves false, and returned; nothing is written then. A current record of
   * the same process (same pid and start time) is kept and completed with `record`'s other fields.
   * @returns the live holder's record, or undefined when `record` was written.
   * @throws FILE_CORRUPT, LOCK_TIMEOUT
   */
  claimProcessRecord(team: string, agent: string, record: ProcessRecord, isStale: (current: ProcessRecord) => Promise<boolean>): Promise<ProcessRecord | undefined>;
  /** Removes the pid record (no-op when absent). */
  deleteProcessRecord(team: string, agent: string): Promise<void>;
  /** Opens the teammate's log file for appending (stores without local files throw NOT_SUPPORTED). */
  openAgentLog(team: string, agent: string): Promise<AgentLog>;
  /**
   * The teammate's log from byte `from` (default 0) to its end, as UTF-8 text (`""` when missing).
   * At most the last `maxBytes` (default 64 KiB) of that range are read.
   */
  readAgentLog(team: string, agent: string, options?: { from?: number; maxBytes?: number }): Promise<string>;

  /**
   * Records a running teammate command (docs/format.md "Command records"), keyed by team and pid;
   * replaces a record of the same pid. The record outlives the team, until it is deleted.
   */
  writeCommandRecord(record: CommandRecord): Promise<void>;
  /** Removes the record of the command with this pid (no-op when absent). */
  deleteCommandRecord(team: string, pid: number): Promise<void>;
  /** Valid command records of `team`, or of every team (deleted ones too) when `team` is undefined. */
  listCommandRecords(team?: string): Promise<CommandRecord[]>;
}
