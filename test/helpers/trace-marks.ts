/**
 * Reading a `mailroom agent`'s trace marks (`MAILROOM_TRACE_MARKS=1`: `mailroom-mark <name> <ms>`
 * lines on stderr, src/trace-marks.ts), for a test that must act only once the agent reached a
 * point — rather than after a fixed sleep that a loaded machine can outlast.
 */
import { readFile, stat } from 'node:fs/promises';
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

/** The agent's trace marks with their times (epoch ms, the clock of `performance.timeOrigin + performance.now()`). */
export function timedMarks(child: LineChild): Array<{ name: string; at: number }> {
  return child
    .stderr()
    .split('\n')
    .flatMap((l) => (l.startsWith('mailroom-mark ') ? [{ name: l.split(' ')[1]!, at: Number(l.split(' ')[2]) }] : []));
}

/**
 * True once a files-store agent is asleep after its `calls`-th model call's turn AND after the
 * config hint of its idle `isActive: false` write: that write (src/core/members/reader-claim.ts) is
 * not awaited, so it can land after the agent first fell asleep, and its hint makes the next check a
 * full one, which takes a message sent meanwhile directly instead of looking at it. Here: config.json
 * (`configPath`) says `member` is not active, it was renamed into place (its ctime) after that model
 * call, and a `wait-asleep` mark came after it.
 */
export async function asleepAfterIdleWrite(child: LineChild, calls: number, configPath: string, member: string): Promise<boolean> {
  const marks = timedMarks(child);
  const call = marks.filter((m) => m.name === 'model-call')[calls - 1];
  if (call === undefined || marks.filter((m) => m.name === 'model-call').length !== calls) return false;
  try {
    const config = JSON.parse(await readFile(configPath, 'utf8')) as { members: Array<{ name: string; isActive?: boolean }> };
    if (config.members.find((m) => m.name === member)?.isActive !== false) return false;
    const written = (await stat(configPath)).ctimeMs;
    return written > call.at && marks.some((m) => m.name === 'wait-asleep' && m.at > written);
  } catch {
    return false; // not there yet
  }
}

/**
 * {@link asleepAfterIdleWrite} for a store with no file to stat (Redis): a check to poll that is
 * true once the agent made exactly `calls` model calls, `inactive()` is true (its idle `isActive`
 * write landed), the hints of both presence writes of that turn reached it (two `hint-dirty` marks
 * after the call: `isActive` true after the request, false after the turn; each wakes a full
 * check), and its last mark is `wait-asleep`, after them: it sleeps with no presence hint to come.
 */
export function asleepAfterIdleSeen(child: LineChild, calls: number, inactive: () => Promise<boolean>): () => Promise<boolean> {
  return async () => {
    const marks = timedMarks(child);
    const callsAt = marks.filter((m) => m.name === 'model-call');
    if (callsAt.length !== calls) return false;
    const after = marks.filter((m) => m.at >= callsAt[calls - 1]!.at);
    if (after.filter((m) => m.name === 'hint-dirty').length < 2 || after.at(-1)?.name !== 'wait-asleep') return false;
    return inactive().catch(() => false);
  };
}
