/**
 * Reading a `mailroom agent`'s trace marks (`MAILROOM_TRACE_MARKS=1`: `mailroom-mark <name> <ms>`
 * lines on stderr, src/trace-marks.ts), for a test that must act only once the agent reached a
 * point — rather than after a fixed sleep that a loaded machine can outlast.
 */
import type { LineChild } from './line-child.js';

/** The agent's trace marks by name, in the order it wrote them. */
export function marks(child: LineChild): string[] {
  return child
    .stderr()
    .split('\n')
    .flatMap((l) => (l.startsWith('mailroom-mark ') ? [l.split(' ')[1]!] : []));
}

/**
 * True once the agent went to sleep in its waiter (`wait-asleep`) after exactly `calls` model calls
 * (`model-call` marks): from then on only its inbox hint (the store's watch) or its poll wakes it,
 * and mail sent now is found by a look of a woken teammate, not by the check after its turn.
 */
export function asleepAfter(child: LineChild, calls: number): boolean {
  let made = 0;
  for (const m of marks(child)) {
    if (m === 'model-call') made++;
    else if (m === 'wait-asleep' && made === calls) return true;
  }
  return false;
}
