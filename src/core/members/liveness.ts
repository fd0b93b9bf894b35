/**
 * The liveness timings of this process (docs/runtime.md "Dead members"): how often a runtime beats
 * its reader claim, how long a claim lives without a beat, the grace after that before a dead
 * member's tasks are taken back, and how often a sweeper runs. Defaults: 5 s beats, a 15 s ttl
 * (three beats), a 15 s grace, a 5 s sweep. `$MAILROOM_BEAT_MS` scales all four from one beat
 * period (ttl = grace = 3 beats, sweep = 1 beat, stall bound = 24 beats) — for tests and for teams
 * that want faster failover; the claim stores its own ttl, so a sweeper judges each claim by the ttl
 * its holder chose.
 */
import { MailroomError } from '../../errors.js';
import { BEAT_INTERVAL_MS, DEFAULT_READER_TTL_MS } from '../../domain/reader-claims.js';

/** Liveness timings, all in ms. */
export interface LivenessTiming {
  /** How often a runtime beats its reader claim. */
  beatMs: number;
  /** A claim is dead after this long without a beat. */
  ttlMs: number;
  /** How long a member stays dead before its tasks are taken back. */
  graceMs: number;
  /** How often a sweeper (runtime, `watch`, bridge) sweeps its team. */
  sweepMs: number;
  /**
   * The store stall every sweeper tolerates (default 120 s = 24 beats; issue 21 item 3): a sweeper
   * with no presence of its own (a command, `watch`, the bridge, an in-process host) judges a member
   * dead only once its last beat is older than ttl + grace + this on the store's clock, so a stall of
   * the store shorter than it makes nobody dead. A runtime's sweeper tolerates a stall of any length.
   */
  stallBoundMs: number;
}

/** Default {@link LivenessTiming.stallBoundMs} (ms): a store stall shorter than 2 minutes makes nobody dead. */
export const STALL_BOUND_MS = 120_000;

/** The smallest `$MAILROOM_BEAT_MS` accepted (ms). */
export const MIN_BEAT_MS = 50;

/**
 * This process's timings, from `$MAILROOM_BEAT_MS` when set.
 * @throws INVALID_ARGUMENT when `$MAILROOM_BEAT_MS` is not a whole number of ms ≥ {@link MIN_BEAT_MS}
 */
export function livenessTiming(env: NodeJS.ProcessEnv = process.env): LivenessTiming {
  const raw = env.MAILROOM_BEAT_MS;
  if (raw === undefined || raw === '') return { beatMs: BEAT_INTERVAL_MS, ttlMs: DEFAULT_READER_TTL_MS, graceMs: DEFAULT_READER_TTL_MS, sweepMs: BEAT_INTERVAL_MS, stallBoundMs: STALL_BOUND_MS };
  const beatMs = Number(raw);
  if (!Number.isSafeInteger(beatMs) || beatMs < MIN_BEAT_MS) {
    throw new MailroomError('INVALID_ARGUMENT', `$MAILROOM_BEAT_MS must be a whole number of milliseconds, at least ${MIN_BEAT_MS} (got ${JSON.stringify(raw)}). Unset it for the default 5000.`, { details: { env: 'MAILROOM_BEAT_MS', value: raw } });
  }
  return { beatMs, ttlMs: 3 * beatMs, graceMs: 3 * beatMs, sweepMs: beatMs, stallBoundMs: 24 * beatMs };
}
