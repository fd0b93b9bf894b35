/** Types of bench/lib/frozen-writer.mjs (shared by test/torture and bench/). */
export type FrozenKind = 'inbox' | 'task' | 'config';
export type FreezePoint = 'before-link' | 'before-rename' | 'after-rename';
export const FROZEN_STALE_MS: number;
export interface FrozenOptions {
  root: string;
  kind: FrozenKind;
  points: readonly FreezePoint[];
  taker: 'mailroom' | 'claude';
  takerWrites?: number;
  env?: NodeJS.ProcessEnv;
  /** Kill (SIGKILL) the first writer at its last stop instead of resuming it. */
  kill?: boolean;
}
export interface FrozenResult {
  kind: FrozenKind;
  points: FreezePoint[];
  taker: 'mailroom' | 'claude';
  acknowledged: number;
  present: number;
  lost: string[];
  duplicated: string[];
  /** Acknowledged mailroom writes with no journal event. */
  unjournalled: string[];
  /** Writes journalled more than once (a write step that ran again must journal once). */
  journalledTwice: string[];
  frozen: { code: number; stderr: string };
  takerStderr: string;
}
export function runFrozenWriter(options: FrozenOptions): Promise<FrozenResult>;
export function frozenFigures(result: FrozenResult): string;
