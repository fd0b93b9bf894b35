/**
 * Timing marks on the delivery path, for tracing where a woken teammate's time goes (issue 24;
 * docs/performance.md): with `MAILROOM_TRACE_MARKS=1` each {@link traceMark} writes
 * `mailroom-mark <name> <epoch ms, µs precision>` on stderr, on the clock a bench or another
 * process can line up with its own (`performance.timeOrigin + performance.now()`).
 * Unset (always, outside a trace), {@link traceMark} is an empty function chosen once at load: a call
 * costs nothing but the call.
 */

function writeMark(name: string): void {
  process.stderr.write(`mailroom-mark ${name} ${(performance.timeOrigin + performance.now()).toFixed(3)}\n`);
}

/** Writes a timing mark named `name` when `$MAILROOM_TRACE_MARKS` is `1`; else does nothing. */
export const traceMark: (name: string) => void = process.env.MAILROOM_TRACE_MARKS === '1' ? writeMark : () => undefined;
