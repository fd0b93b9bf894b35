/**
 * Store-level health findings: problems in the stored data itself, found by scanning a store
 * (`TeamStore.scanHealth` for team data, `HostStore.scanHealth` for this machine's own records)
 * and repaired one by one (`repairHealth` of the same store). Team-level checks (dependencies,
 * owners, orphan inboxes) live in core/doctor/team-checks.ts over ordinary store reads.
 *
 * An issue's `kind` is stable (it is `mailroom doctor --json`'s `kind`); each kind says below which
 * backend reports it. Every issue has a `location`, where the problem is *for humans* (a path on
 * the files backend, a key or the server on Redis): a caller shows it and hands the issue back to
 * `repairHealth`, never acts on a location itself. Most kinds are leftovers of the files backend's
 * machinery (temporary files, lock directories, file names); a backend reports only the kinds it
 * can have, and a caller treats every kind the same way (show, then repair or not).
 */

/**
 * What kind of stored record a corrupt one is (`highwatermark`: a task list's highest id ever
 * used; `process`: a `mailroom agent` pid record; `command`: a running command's record; `lease`:
 * an inbox's lease bookkeeping; `reader`: a member's reader claim; `idempotency`: a remembered
 * idempotency key; `member`: mailroom's record of a member; `path-leases`: a team's advisory path
 * leases; `settings`: a team's settings — policy, signing, limits — which repair never moves aside).
 */
export type StoredRecordKind = 'config' | 'inbox' | 'task' | 'highwatermark' | 'process' | 'command' | 'lease' | 'reader' | 'idempotency' | 'member' | 'path-leases' | 'settings';

/** One problem found in a store. */
export type StoreIssue =
  /**
   * A stored record that does not parse or does not match its format; set aside by repair, never
   * overwritten. Files backend (a file, named `corrupt-file` for that); the host store too.
   */
  | { kind: 'corrupt-file'; location: string; recordKind: StoredRecordKind; detail: string }
  /**
   * Files backend: a temporary file left by a writer killed before its rename (`target`: the file
   * it was for). `removable`: older than 10 min, or no lock guarding its file is held (and older than 2 s).
   */
  | { kind: 'temp-file'; location: string; target: string; bytes: number; ageMs: number; lockHeld: boolean; removable: boolean }
  /** Files backend: a lock not refreshed for longer than the stale time (its holder died). */
  | { kind: 'stale-lock'; location: string; ageMs: number }
  /** Files backend: a `<lock>.takeover` guard older than the stale time, or a `<lock>.stale-*` directory left mid-takeover. */
  | { kind: 'lock-leftover'; location: string; ageMs: number }
  /**
   * Files backend: a task list that belongs to no team (Claude Code 2.1.332 leaves `tasks/<list>/`
   * behind when it removes a session's team). `tasks`: its task files; `ageMs`: since anything in it last changed.
   */
  | { kind: 'orphan-task-list'; location: string; list: string; tasks: number; ageMs: number }
  /**
   * Redis: a setting of the store's server that puts team data at risk (no AOF, so a restart
   * loses recent sends; an eviction policy other than `noeviction`, so a full server deletes
   * inboxes and tasks). `severity`: `problem` for silent data loss in normal use, `info` for
   * durability a user may have chosen to give up. Never repaired by mailroom (the server is
   * shared; its configuration is its operator's): `fix` says what to change.
   */
  | { kind: 'server-setting'; location: string; setting: string; value: string; severity: 'problem' | 'info'; detail: string; fix: string }
  /**
   * A member name too long for the store to key an inbox by (`bytes` of the key, over `limit`).
   * Files backend (an inbox file name). Not repaired: rename the member.
   */
  | { kind: 'name-too-long'; location: string; team: string; member: string; bytes: number; limit: number }
  /**
   * Members whose names the store keys as one inbox (`location`): they would share it. Files
   * backend (Claude Code's file-name rule). Not repaired: rename all but one.
   */
  | { kind: 'inbox-collision'; location: string; team: string; members: string[] }
  /**
   * A team directory whose config is not there (`location`: where the config belongs), beside
   * its inboxes (its mail is there but no command can see the team) or with none (a directory
   * left from a team whose config was removed, or made by hand; `detail` says which). Files backend. Repair rebuilds
   * the config from the journal, member records and inboxes (issue 23 item 3). A config that does
   * not parse is a `corrupt-file` of kind `config`, repaired the same way.
   */
  | { kind: 'missing-config'; location: string; team: string; detail: string };

/** The outcome of repairing one {@link StoreIssue}. */
export interface StoreRepair {
  /** True when the problem is gone (repaired now, or already gone). */
  done: boolean;
  /** What was done, or why nothing was. */
  note: string;
  /** Bytes of storage freed (temporary files). */
  bytesFreed: number;
  /** Where a record set aside (or a task list without a team) went, for humans. */
  movedTo?: string;
  /** A salvaged inbox: how many complete entries were kept in it. */
  kept?: number;
  /** A salvaged inbox: bytes of its text that did not make an entry, set aside (UTF-8 bytes). */
  setAsideBytes?: number;
}

/** Suffix stamp for quarantined files: `.corrupt-20260301T120000Z`-style, sortable, no colons. */
export function stampNow(): string {
  return new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}
