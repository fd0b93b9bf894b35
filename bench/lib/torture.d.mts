/** Types of bench/lib/torture.mjs (shared by test/torture and bench/). */
export interface MailroomRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  ms: number;
}
export function runMailroom(args: readonly string[], options?: { killAfterMs?: number; env?: NodeJS.ProcessEnv }): Promise<MailroomRun>;

export interface ReaderSummary {
  reads: number;
  torn: number;
  vanished: number;
  samples: string[];
}
export function startReader(teamDirs: readonly string[], intervalMs?: number): Promise<{ stop(): Promise<ReaderSummary> }>;

export interface TortureOptions {
  root: string;
  team: string;
  to: string;
  senders: readonly string[];
  sends: number;
  killProbability?: number;
  /** The first `kills` processes of each sender are always SIGKILLed (default 0). */
  kills?: number;
  maxKillDelayMs?: number;
  readerIntervalMs?: number;
  during?: () => Promise<unknown>;
  env?: NodeJS.ProcessEnv;
}
export interface TortureSend extends MailroomRun {
  sender: string;
  n: number;
  text: string;
}
export interface TortureResult {
  sends: TortureSend[];
  reader: ReaderSummary;
  texts: string[];
  elapsedMs: number;
}
export function runSendTorture(options: TortureOptions): Promise<TortureResult>;
export function runLibraryTorture(options: TortureOptions): Promise<TortureResult>;

export interface Verdict {
  acknowledged: number;
  killed: number;
  lost: string[];
  duplicated: string[];
  outOfOrder: string[];
  failed: string[];
  tornReads: number;
  vanished: number;
  reads: number;
  tookOver: number;
}
export function judge(result: TortureResult): Verdict;
