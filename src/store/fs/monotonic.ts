/**
 * A monotonic clock for the files store's waits and retry schedules (lock acquisition, spool
 * combining). Same clock as `performance.now()`, which loads node:perf_hooks on its first call
 * (~1 ms of a one-shot verb's start).
 */

/** Milliseconds since an arbitrary fixed point, never going back (`process.hrtime`). */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
