/**
 * Merging a task file or a team config after a displaced write (src/store/locked-write.ts): a
 * writer paused past the stale time renamed its version over one another holder wrote after
 * taking the lock over. These files are objects whose top-level keys change as units (`status`,
 * `owner`, `blockedBy`, `members`, …). Starting from the file as it is now, the merge re-applies
 * every key the other holder changed relative to the version both started from (`base`), unless a
 * later write changed that key again (the later value stands). Where the paused writer changed the
 * same key differently, the other holder's value — written and acknowledged first — wins, and the
 * operation runs again on top of the merged file (`mineKept: false`; {@link withLock}), so its
 * rules are checked anew: a claim of a task someone claimed meanwhile then fails with
 * TASK_ALREADY_CLAIMED, an added dependency is added to the other one. Nothing of either writer is
 * lost, and the paused writer reports success only when its change is in the file.
 */
import { formatJson } from '../json-file.js';
import type { MergeInput, MergeResult } from '../locked-write.js';
import { clone, isRecord, same, setKey } from './recover-inbox.js';

/** The {@link Merge} of JSON-object files (tasks, config, process records). @throws when a version is not an object */
export function mergeObject(input: MergeInput): MergeResult {
  const base = input.base === undefined ? {} : parseObject(input.base);
  const mine = parseObject(input.mine);
  const theirs = parseObject(input.replaced);
  const result = clone(parseObject(input.current));
  const reapplied: string[] = [];
  let mineKept = true;
  for (const key of new Set([...Object.keys(base), ...Object.keys(theirs)])) {
    if (same(base[key], theirs[key]) || same(result[key], theirs[key])) continue; // not their change, or already in
    if (!same(result[key], mine[key])) continue; // changed again after the paused write: the later value stands
    if (!same(mine[key], base[key])) mineKept = false; // both changed it: theirs wins, the operation runs again
    setKey(result, key, theirs[key]);
    reapplied.push(key);
  }
  const note = reapplied.length > 0 ? `re-applied the other writer's change of ${reapplied.join(', ')}` : 'nothing of the other writer was missing';
  return { text: formatJson(result), mineKept, note: mineKept ? note : `${note}, over its own change` };
}

/**
 * The {@link Merge} of `.highwatermark` (a bare decimal id): the larger of the current and the
 * replaced value, so no task id is ever used twice.
 */
export function mergeHighWatermark(input: MergeInput): MergeResult {
  const current = input.current.trim();
  const replaced = input.replaced.trim();
  if (!/^[0-9]+$/.test(current) || !/^[0-9]+$/.test(replaced)) throw new Error('not a whole number');
  const higher = BigInt(replaced) > BigInt(current);
  return { text: higher ? replaced : input.current, mineKept: true, note: higher ? `kept the higher mark ${replaced}` : 'nothing of the other writer was missing' };
}

function parseObject(text: string): Record<string, unknown> {
  const value: unknown = JSON.parse(text);
  if (!isRecord(value)) throw new Error('not a JSON object');
  return value;
}
