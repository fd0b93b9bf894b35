/**
 * The member-record part of the store (docs/format.md "Member records"): mailroom's own data about
 * each member it registered, kept apart from Claude Code's config.json. One interface, so that a
 * second backend implements it next to the rest of the store (the filesystem one is
 * src/store/fs/member-records.ts).
 */
import type { MemberRecord } from '../protocol/member-record.js';

/** Reads and writes member records. Safe to call from many processes. */
export interface MemberRecordStore {
  /**
   * The record of `name` in `team`, or undefined when there is none (or it has another version).
   * @throws FILE_CORRUPT when it does not parse or match the format (never taken for absent)
   */
  readMemberRecord(team: string, name: string): Promise<MemberRecord | undefined>;
  /** Writes (replaces) the record of `record.name` in `record.team`. @throws FILE_CORRUPT when the current one does not parse (it is never overwritten) */
  writeMemberRecord(record: MemberRecord): Promise<void>;
  /** Removes the record (no-op when absent). */
  deleteMemberRecord(team: string, name: string): Promise<void>;
  /** Every valid record of `team`, by member name (invalid files are skipped; `mailroom doctor` reports them). */
  listMemberRecords(team: string): Promise<MemberRecord[]>;
}
