/**
 * A test hook in the write step, used only by tests (test/torture/frozen-writer.test.ts): with
 * `MAILROOM_TEST_FREEZE=<point>[,<point>…][:<part of the path>]` the process stops itself with
 * SIGSTOP the first time a write of a matching file reaches each `<point>`, after printing
 * `mailroom-test: frozen <point> <file>` on stderr, exactly as a writer paused there (SIGSTOP, a
 * frozen VM, swap) would be. The test resumes it with SIGCONT. Points, in the order a write passes
 * them (src/store/fs/atomic-write.ts):
 * - `before-link`: after the ownership check, before the replaced file is kept (hard link);
 * - `before-rename`: after that link, right before the `rename`;
 * - `after-rename`: right after the `rename`, before the lock is confirmed again.
 * And in the archive step (src/store/fs/inbox-archive.ts; test/bridge/archive-attack.test.ts):
 * - `archive-appended`: the read head appended to the archive and fsynced, before the inbox is
 *   rewritten without it (`<file>` is the archive's path).
 * And in the bridge (test/bridge/landed-attack.test.ts):
 * - `bridge-copied`: a sync step's copies written into the local inbox, before the step's synced
 *   set is saved (`<file>` is `<team>/<member>`).
 * And one outside the write step, on either backend (test/mcp/handout-cancel.test.ts):
 * - `mcp-after-take`: a `mailroom mcp` server right after a take handed messages out, before the
 *   reply is built (`<file>` is `<team>/<member>`).
 * - `looked-take`: a teammate's model request made for entries it looked at, before the take that
 *   hands them out begins (src/runtime/turn.ts; test/e2e/agent-request-before-take.test.ts;
 *   `<file>` is `<team>/<member>`).
 * - `answered`: a teammate's model answer received, before the acknowledgement that lets it act
 *   (src/runtime/turn.ts; test/e2e/agent-paused-taken-over.test.ts; `<file>` is `<team>/<member>`).
 * Unset (always, outside tests), it costs one property read per write.
 */

/** Where a write can be frozen. */
export type FreezePoint = 'before-link' | 'before-rename' | 'after-rename' | 'archive-appended' | 'bridge-copied' | 'mcp-after-take' | 'looked-take' | 'answered';

const fired = new Set<FreezePoint>();

/** Stops this process at `point` when `$MAILROOM_TEST_FREEZE` asks for it (once per point). */
export function testFreeze(point: FreezePoint, file: string): void {
  const spec = process.env.MAILROOM_TEST_FREEZE;
  if (spec === undefined || spec === '' || fired.has(point)) return;
  const colon = spec.indexOf(':');
  const wanted = (colon < 0 ? spec : spec.slice(0, colon)).split(',');
  const part = colon < 0 ? '' : spec.slice(colon + 1);
  if (!wanted.includes(point) || !file.includes(part)) return;
  fired.add(point);
  process.stderr.write(`mailroom-test: frozen ${point} ${file}\n`);
  process.kill(process.pid, 'SIGSTOP');
}
