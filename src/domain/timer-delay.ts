/**
 * Node keeps a timer at most 2^31 − 1 ms (about 24.8 days); a longer delay fires after 1 ms, with a
 * TimeoutOverflowWarning. Every wait with a deadline arms its timer through {@link timerDelay} and
 * re-arms until the deadline, so a library caller's wait of a month waits a month.
 */

/** The longest delay Node keeps for a timer (ms): 2^31 − 1, about 24.8 days. */
export const MAX_TIMER_MS = 2_147_483_647;

/** `ms` as a timer's delay: at most {@link MAX_TIMER_MS}, at least 0 (a wait re-arms until its deadline). */
export function timerDelay(ms: number): number {
  return Math.min(Math.max(0, ms), MAX_TIMER_MS);
}
