/**
 * Shapes of `mailroom doctor` results (core/doctor/doctor.ts).
 */
import type { StoreIssue, StoreRepair } from '../../store/health.js';

/** Every kind of problem doctor knows. */
export type DoctorFindingKind = StoreIssue['kind'] | 'asymmetric-dependency' | 'dangling-dependency' | 'dependency-cycle' | 'orphan-owner' | 'orphan-inbox' | 'orphan-command';

/** One finding, with the repair made when run with `fix`. */
export interface DoctorFinding {
  kind: DoctorFindingKind;
  /** `problem` needs attention; `info` is reported only (e.g. a temp file of a write in progress). */
  severity: 'problem' | 'info';
  /** What is wrong, in one sentence. */
  message: string;
  team?: string;
  /** Where the problem is, for humans (a file or directory for the filesystem store). */
  path?: string;
  /** Size of the file concerned (bytes), for temporary files. */
  bytes?: number;
  /** Set when run with `fix`: what was done. */
  repair?: StoreRepair;
}

/** A finding and how to repair it. */
export interface Check {
  finding: DoctorFinding;
  fix?: () => Promise<StoreRepair>;
}

/** Result of {@link doctor}. */
export interface DoctorReport {
  /** The store that was checked (its location, for humans). */
  root: string;
  /** True when repairs were attempted (`fix`). */
  fixed: boolean;
  findings: DoctorFinding[];
  /** Findings of severity `problem`. */
  problems: number;
  /** Problems still present after the run (all of them without `fix`). */
  remaining: number;
  /** Disk space freed by repairs (bytes). */
  bytesFreed: number;
  /**
   * False when the files store's root directory does not exist (nothing was created, nothing could
   * be checked: `doctor` on a fresh ~/.mailroom); always true for a Redis store.
   */
  exists: boolean;
  /** Teams whose state was checked (readable ones; unreadable ones are findings). */
  teams: number;
}
