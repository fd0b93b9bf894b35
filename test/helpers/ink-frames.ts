/**
 * Helpers for ink-testing-library tests: frames without ANSI codes, and waiting until a frame
 * shows something (ink re-renders asynchronously after input or new props).
 */

/** Removes ANSI escape sequences. */
export function plain(frame: string | undefined): string {
  // eslint-disable-next-line no-control-regex
  return (frame ?? '').replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
}

/** Polls `frame()` until `test` accepts its plain text; throws with the last frame after `ms` (generous: a loaded 2-core CI machine can stall a worker for seconds). */
export async function waitForFrame(frame: () => string | undefined, test: (text: string) => boolean, ms = 10_000): Promise<string> {
  const until = Date.now() + ms;
  for (;;) {
    const text = plain(frame());
    if (test(text)) return text;
    if (Date.now() > until) throw new Error(`frame never matched; last frame:\n${text}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Lets ink process a write to stdin (one macrotask). */
export function tick(): Promise<void> {
  return new Promise((r) => setTimeout(r, 0));
}
