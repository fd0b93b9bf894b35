/**
 * Waits longer than Node's longest timer (2^31 − 1 ms, about 24.8 days): Node fires such a timer
 * after 1 ms (with a TimeoutOverflowWarning), so a library caller's `team send` wait, ask or run
 * deadline of a month ended (or spun) at once. The CLI refuses such durations (src/cli/durations.ts);
 * the library waits them out, re-arming the timer (the session-20 break test's left item).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_TIMER_MS, timerDelay } from '../../../src/domain/timer-delay.js';
import { deadline } from '../../../src/runtime/deadline.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('long waits', () => {
  it('timerDelay caps a delay at the longest timer Node keeps, and never goes below 0', () => {
    expect(MAX_TIMER_MS).toBe(2 ** 31 - 1);
    expect(timerDelay(30 * 86_400_000)).toBe(MAX_TIMER_MS);
    expect(timerDelay(5)).toBe(5);
    expect(timerDelay(-3)).toBe(0);
  });

  it('a deadline of 30 days does not abort at once, and aborts after 30 days', async () => {
    vi.useFakeTimers();
    const month = 30 * 86_400_000;
    const d = deadline(month);
    await vi.advanceTimersByTimeAsync(10);
    expect(d.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS);
    expect(d.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(month - MAX_TIMER_MS);
    expect(d.signal.aborted).toBe(true);
    expect((d.signal.reason as DOMException).name).toBe('TimeoutError');
  });
});
