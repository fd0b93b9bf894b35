/**
 * The host store: state that belongs to this machine only, next to whichever team store is in use.
 * Pids and process identities mean nothing on another machine, so a reaper or `team stop` judges
 * only records its own host wrote; a Redis team store never holds them. Always a local directory
 * (the filesystem root, or `--root`/`$MAILROOM_ROOT`/`~/.mailroom` beside a Redis store).
 */
import type { CommandRecord } from '../protocol/command.js';
import type { LeadPin, ObeyedIds, SeenIds, StoredKey } from '../protocol/identity-files.js';
import type { ProcessRecord } from '../protocol/process.js';
import type { StoreIssue, StoreRepair } from './health.js';
import type { ProcessProbe } from '../domain/processes.js';

/** An open, append-only log file of a process-backend teammate. */
export interface AgentLog {
  /** Where it is, for humans. */
  location: string;
  /** File descriptor, for a child process's stdout/stderr. */
  fd: number;
  /** Its size in bytes when opened: where a child started now begins writing. */
  size: number;
  /** Closes this process's descriptor (a child keeps its own copy). */
  close(): Promise<void>;
}

/** This machine's records of the processes it runs for teams, and the files its user points at. */
export interface HostStore {
  /** Stable id of this machine (hostname plus a machine-id prefix), written into records and reader claims. */
  readonly hostId: string;
  /** The local directory, for humans. */
  readonly location: string;

  /** The pid record of a member's `mailroom agent` process, or undefined. @throws FILE_CORRUPT (never taken for absent) */
  readProcessRecord(team: string, member: string): Promise<ProcessRecord | undefined>;
  /** Writes (replaces) the pid record. */
  writeProcessRecord(team: string, member: string, record: ProcessRecord): Promise<void>;
  /**
   * Writes `record` unless a recorded process of another identity may still run on this host;
   * the live holder's record is returned then and nothing is written. @throws FILE_CORRUPT, LOCK_TIMEOUT
   */
  claimProcessRecord(team: string, member: string, record: ProcessRecord): Promise<ProcessRecord | undefined>;
  /** Removes the pid record (no-op when absent). */
  deleteProcessRecord(team: string, member: string): Promise<void>;
  /**
   * Claims the one `mailroom bridge` of `team` on this root (issue 21): writes `record` unless a
   * recorded bridge of another identity may still run on this host. @returns that live holder, or undefined when written
   */
  claimBridgeRecord(team: string, record: ProcessRecord): Promise<ProcessRecord | undefined>;
  /** Removes the bridge record when it is still `pid`'s (no-op otherwise). */
  releaseBridgeRecord(team: string, pid: number): Promise<void>;
  /** Members of `team` with a pid record. */
  listProcessRecords(team: string): Promise<ProcessRecord[]>;

  /** Opens the member's log for appending. */
  openAgentLog(team: string, member: string): Promise<AgentLog>;
  /** The log from byte `from` (default 0), at most the last `maxBytes` (default 64 KiB) of it, as UTF-8 (`""` when missing). */
  readAgentLog(team: string, member: string, options?: { from?: number; maxBytes?: number }): Promise<string>;

  /** Records a running teammate command, keyed by team and pid (replaces a record of the same pid); it outlives the team. */
  writeCommandRecord(record: CommandRecord): Promise<void>;
  /** Removes a command record (no-op when absent). */
  deleteCommandRecord(team: string, pid: number): Promise<void>;
  /** Valid command records of `team`, or of every team (deleted ones too). */
  listCommandRecords(team?: string): Promise<CommandRecord[]>;

  /**
   * True when no process on this machine noted `key` within the last `periodMs` (ms), and notes it
   * now: for a notice a user should read once per period rather than on every command (the
   * warning about a Redis server that can lose acknowledged mail). Never throws: a note that cannot
   * be read or written answers true (the notice is shown).
   */
  firstInPeriod(key: string, periodMs: number): Promise<boolean>;
  /** What the OS says about a pid on this machine (Linux `/proc`). Never throws. */
  probeProcess(pid: number): Promise<ProcessProbe>;

  /**
   * The team's signing key on this machine (`mailroom/keys/<team>.key`, mode 0600), undefined
   * when this machine has none. @throws FILE_CORRUPT when the file is not a key
   */
  readTeamKey(team: string): Promise<Buffer | undefined>;
  /** Makes a new signing key for the team (replacing none: @throws TEAM_EXISTS when one exists). */
  createTeamKey(team: string): Promise<Buffer>;

  // Identities of signed teams (src/protocol/identity-files.ts; docs/approvals.md "Signed teams").
  // Each read @throws KEY_PERMISSIONS when the file is readable by others (fix: chmod 600), FILE_CORRUPT.
  /** A member's Ed25519 key pair on this machine (`mailroom/keys/<team>/<member>.key.json`), undefined when none. */
  readMemberKey(team: string, member: string): Promise<StoredKey | undefined>;
  /** Writes (replaces) a member's key pair, mode 0600. */
  writeMemberKey(key: StoredKey): Promise<void>;
  /** The lead keys this machine pinned for the team (`lead-pin.json`), undefined when none: the team is not signed here. */
  readLeadPin(team: string): Promise<LeadPin | undefined>;
  /** Writes (replaces) the pin. */
  writeLeadPin(pin: LeadPin): Promise<void>;
  /** The control messages a member's reader obeyed (nonce → expiry), undefined when none. */
  readObeyed(team: string, member: string): Promise<ObeyedIds | undefined>;
  /** Writes (replaces) them. */
  writeObeyed(team: string, member: string, obeyed: ObeyedIds): Promise<void>;
  /** The signed plain messages a member's reader consumed on this machine (`<member>.seen.json`), undefined when none. */
  readSeen(team: string, member: string): Promise<SeenIds | undefined>;
  /** Writes (replaces) them, mode 0600. */
  writeSeen(team: string, member: string, seen: SeenIds): Promise<void>;

  /** The text of the team's hooks file on this machine (`teams/<team>/hooks.json`), undefined when there is none. */
  readHooksFile(team: string): Promise<{ path: string; text: string } | undefined>;

  // Files a user points mailroom at (a team file, a script, a work directory): not team state.
  /** Reads a UTF-8 text file named on the command line or in a config. @throws INVALID_ARGUMENT (missing, a directory) */
  readUserFile(path: string, what?: string): Promise<string>;
  /** Creates a directory the user named, with parents; @returns its absolute path. @throws INVALID_ARGUMENT (cannot be made) */
  ensureUserDir(path: string, what?: string): Promise<string>;
  /** Checks that a directory the user named exists; @returns its absolute path. @throws INVALID_ARGUMENT (missing, not a directory) */
  requireUserDir(path: string, what?: string): Promise<string>;
  /** Modification time (epoch ms) of a file the user's tasks write; undefined when there is none. */
  userFileMtimeMs(path: string): Promise<number | undefined>;

  /**
   * The saved state of this machine's bridge of `team` (`mailroom bridge`, docs/bridge.md): opaque
   * JSON text the bridge wrote, or undefined when none. Kept outside `teams/<team>/`, which Claude
   * Code removes at the end of its session.
   */
  readBridgeState(team: string): Promise<string | undefined>;
  /**
   * Replaces the bridge state of `team` atomically (a crash leaves the old or the new text, never a
   * mix), then empties its log ({@link appendBridgeStateLog}): the text holds all of it.
   */
  writeBridgeState(team: string, text: string): Promise<void>;
  /**
   * Appends one line (JSON text, no newline) to the log of the bridge state of `team`, on disk
   * (fsync) when it resolves: a step's change costs its own size, not the whole state's (issue 24
   * item 4). @throws FILE_ACCESS
   */
  appendBridgeStateLog(team: string, line: string): Promise<void>;
  /**
   * The lines appended since the state was last replaced, oldest first ([] when none). The last may
   * be cut short by a crash mid-append: the reader skips a line it cannot parse.
   */
  readBridgeStateLog(team: string): Promise<string[]>;

  /**
   * Appends `lines` (each one JSON text without a newline) to the member's transcript on this machine
   * (`mailroom/transcripts/<team>/<member>.ndjson`). Bounded: once the file exceeds `maxBytes`, it
   * is rewritten atomically with only its newest whole lines, at most half of `maxBytes`.
   * @throws FILE_ACCESS naming the file
   */
  appendTranscript(team: string, member: string, lines: readonly string[], maxBytes: number): Promise<void>;
  /** The member's transcript as UTF-8 text (`""` when there is none). */
  readTranscript(team: string, member: string): Promise<string>;

  /** Problems in this machine's own files (corrupt records, temp files, stale locks). */
  scanHealth(): Promise<StoreIssue[]>;
  /** Repairs one of {@link scanHealth}'s issues after re-checking it. */
  repairHealth(issue: StoreIssue): Promise<StoreRepair>;
}
