/**
 * Store-level health findings: problems in the files themselves, found by scanning the store
 * (`Store.scanHealth`) and repaired one by one (`Store.repairHealth`). Team-level checks
 * (dependencies, owners, orphan inboxes) live in core/doctor.ts over ordinary store reads.
 */

/**
 * What kind of state file a corrupt file is (`highwatermark`: a task list's `.highwatermark`;
 * `process`: a `mailroom agent` pid record; `command`: a running command's record; `member`:
 * mailroom's record of a member).
 */
export type StateFileKind = 'config' | 'inbox' | 'task' | 'highwatermark' | 'process' | 'command' | 'member';

/** One problem found in the store's files. */
export type StoreIssue =
  /** A state file that does not parse or does not match its format; quarantined by repair, never overwritten. */
  | { kind: 'corrupt-file'; path: string; fileKind: StateFileKind; detail: string }
  /**
   * A temporary file `<file>.<number>` left by a writer killed before its rename. `removable`:
   * older than 10 min, or no lock guarding its file is held (and older than 2 s).
   */
  | { kind: 'temp-file'; path: string; target: string; bytes: number; ageMs: number; lockHeld: boolean; removable: boolean }
  /** A lock directory not refreshed for longer than the stale time (its holder died). */
  | { kind: 'stale-lock'; path: string; ageMs: number }
  /** A `<lock>.takeover` guard older than the stale time, or a `<lock>.stale-*` directory left mid-takeover. */
  | { kind: 'lock-leftover'; path: string; ageMs: number }
  /**
   * A task list `tasks/<list>/` that belongs to no team (Claude Code 2.1.332 leaves it behind when
   * it removes a session's team). `tasks`: its task files; `ageMs`: since anything in it last changed.
   */
  | { kind: 'orphan-task-list'; path: string; list: string; tasks: number; ageMs: number };

/** The outcome of repairing one {@link StoreIssue}. */
export interface StoreRepair {
  /** True when the problem is gone (repaired now, or already gone). */
  done: boolean;
  /** What was done, or why nothing was. */
  note: string;
  /** Bytes of disk space freed (temporary files). */
  bytesFreed: number;
  /** Where a quarantined file (or a task list without a team) went. */
  movedTo?: string;
}

/** Suffix stamp for quarantined files: `.corrupt-20260301T120000Z`-style, sortable, no colons. */
export function stampNow(): string {
  return new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}
