/**
 * Abort signals for waits with a time limit. Node 20's `AbortSignal.timeout()` combined with
 * `AbortSignal.any()` can be garbage-collected before it fires (nodejs/node#57736): a shutdown wait
 * or a run timeout then never ended. Here a plain `setTimeout` and listeners on the source signals
 * keep the controller alive until {@link Deadline.dispose}.
 */

import { MAX_TIMER_MS, timerDelay } from '../domain/timer-delay.js';

/** A signal plus the cleanup that stops its timer and detaches it from its sources. */
export interface Deadline {
  /** Aborts after the time limit (reason: a `TimeoutError` DOMException) or with the first source that aborts (its reason). */
  signal: AbortSignal;
  /** Clears the timer and the listeners; call when the wait is over. */
  dispose(): void;
}

/**
 * A signal that aborts after `ms` milliseconds (none when `ms` is undefined) or as soon as any of
 * `sources` aborts (undefined entries are skipped).
 */
export function deadline(ms: number | undefined, ...sources: ReadonlyArray<AbortSignal | undefined>): Deadline {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  if (ms !== undefined) {
    // Re-armed until the deadline: Node fires a timer past MAX_TIMER_MS after 1 ms.
    const at = Date.now() + ms;
    const arm = (): void => {
      const left = at - Date.now();
      timer = left > MAX_TIMER_MS ? setTimeout(arm, MAX_TIMER_MS) : setTimeout(() => controller.abort(new DOMException(`timed out after ${ms} ms`, 'TimeoutError')), timerDelay(left));
    };
    arm();
  }
  const detach: Array<() => void> = [];
  for (const source of sources) {
    if (!source) continue;
    if (source.aborted) {
      controller.abort(source.reason);
      break;
    }
    const onAbort = () => controller.abort(source.reason);
    source.addEventListener('abort', onAbort, { once: true });
    detach.push(() => source.removeEventListener('abort', onAbort));
  }
  const dispose = () => {
    clearTimeout(timer);
    for (const off of detach.splice(0)) off();
  };
  controller.signal.addEventListener('abort', dispose, { once: true });
  return { signal: controller.signal, dispose };
}
