/**
 * Merging an inbox after a displaced write (src/store/fs/locked-write.ts): a writer paused past the
 * stale time renamed its version over one another holder wrote after taking the lock over. Inbox
 * entries have identity — `msg_id`, else (`from`, `timestamp`, `text`), which Claude Code keeps
 * unique in an inbox (reference §8 rule 14) — so nothing of either writer need be lost. Starting
 * from the file as it is now (the paused writer's version plus anything written since), the merge
 * re-applies what the other holder changed relative to the version both started from (`base`):
 * - entries it **added** and the file lacks go back in, each right after the entry it followed in
 *   the other holder's version (so every sender's entries keep their order);
 * - entries it **removed** (Claude Code 2.1.332 removes delivered entries) are removed again, so a
 *   delivered message is not delivered twice;
 * - fields it **changed** (`read: true`, …) are changed again, unless a later write changed them too.
 * The paused writer's own appends are kept. Only a field both changed differently (its own change
 * loses) makes the operation run again (`mineKept: false`). Without `base` (not given), every
 * entry of the other version that the file lacks counts as added: nothing is lost, a removal may
 * come back.
 */
import { formatJson } from './json-file.js';
import type { MergeInput, MergeResult } from './locked-write.js';

/** Identity of a raw inbox entry: `msg_id`, else from + timestamp + text; an odd value: its JSON. */
export function entryIdentity(entry: unknown): string {
  if (typeof entry === 'object' && entry !== null && !Array.isArray(entry)) {
    const e = entry as Record<string, unknown>;
    if (typeof e.msg_id === 'string' && e.msg_id !== '') return `id:${e.msg_id}`;
    if (typeof e.from === 'string' && typeof e.timestamp === 'string' && typeof e.text === 'string') return `t:${JSON.stringify([e.from, e.timestamp, e.text])}`;
  }
  return `v:${JSON.stringify(entry)}`;
}

/** The {@link Merge} of inbox files (JSON arrays). @throws when a version is not a JSON array */
export function mergeInbox(input: MergeInput): MergeResult {
  const base = input.base === undefined ? undefined : byIdentity(parseArray(input.base));
  const mine = byIdentity(parseArray(input.mine));
  const replaced = parseArray(input.replaced);
  const theirs = byIdentity(replaced);
  const current = parseArray(input.current);
  let result = current.map(clone);
  const counts = { restored: 0, removed: 0, changed: 0 };
  let mineKept = true;

  if (base) {
    const gone = new Set([...base.keys()].filter((id) => !theirs.has(id)));
    const before = result.length;
    result = result.filter((e) => !gone.has(entryIdentity(e)));
    counts.removed = before - result.length;
    for (const entry of result) {
      const id = entryIdentity(entry);
      const was = base.get(id);
      const now = theirs.get(id);
      if (!isRecord(entry) || !isRecord(was) || !isRecord(now)) continue;
      const outcome = reapplyFields(entry, was, now, mine.get(id));
      if (outcome.changed) counts.changed++;
      if (outcome.conflict) mineKept = false;
    }
  }

  const present = new Set(result.map(entryIdentity));
  for (let i = 0; i < replaced.length; i++) {
    const id = entryIdentity(replaced[i]);
    if (present.has(id) || base?.has(id) || mine.has(id)) continue; // not added by them, or removed since by a later writer
    result.splice(insertionIndex(result, replaced, i), 0, clone(replaced[i]));
    present.add(id);
    counts.restored++;
  }

  const parts = [
    counts.restored > 0 ? `restored ${plural(counts.restored, 'entry', 'entries')} the other writer had added` : '',
    counts.removed > 0 ? `removed again ${plural(counts.removed, 'entry', 'entries')} it had removed` : '',
    counts.changed > 0 ? `re-applied its changes to ${plural(counts.changed, 'entry', 'entries')}` : '',
  ].filter(Boolean);
  return { text: formatJson(result), mineKept, note: parts.length > 0 ? parts.join(', ') : 'nothing of the version it replaced was missing (a rename by another writer between its link and its rename is not seen: docs/format.md §3)' };
}

/** Where an entry of `replaced` (at `index`) goes in `result`: after the nearest entry before it there that `result` has. */
function insertionIndex(result: unknown[], replaced: unknown[], index: number): number {
  const positions = new Map(result.map((e, i) => [entryIdentity(e), i]));
  for (let j = index - 1; j >= 0; j--) {
    const at = positions.get(entryIdentity(replaced[j]));
    if (at !== undefined) return at + 1;
  }
  return 0;
}

/**
 * Sets on `entry` (the current one) each field the other writer changed from `was` to `now`,
 * unless a later write changed that field after the paused writer (current ≠ `mine`). A field the
 * paused writer changed differently is a conflict: the other writer's value wins.
 */
function reapplyFields(entry: Record<string, unknown>, was: Record<string, unknown>, now: Record<string, unknown>, mine: unknown): { changed: boolean; conflict: boolean } {
  let changed = false;
  let conflict = false;
  const own = isRecord(mine) ? mine : was;
  for (const key of new Set([...Object.keys(was), ...Object.keys(now)])) {
    if (same(was[key], now[key]) || same(entry[key], now[key])) continue;
    if (!same(entry[key], own[key])) continue; // changed again since the paused write: the later value stands
    if (!same(own[key], was[key])) conflict = true;
    setKey(entry, key, now[key]);
    changed = true;
  }
  return { changed, conflict };
}

/** Sets (or, for undefined, deletes) an own data key, also `__proto__`, which stays an ordinary key. */
export function setKey(target: Record<string, unknown>, key: string, value: unknown): void {
  if (value === undefined) delete target[key];
  else Object.defineProperty(target, key, { value: clone(value), enumerable: true, writable: true, configurable: true });
}

function byIdentity(entries: unknown[]): Map<string, unknown> {
  return new Map(entries.map((e) => [entryIdentity(e), e]));
}

function parseArray(text: string): unknown[] {
  const value: unknown = JSON.parse(text);
  if (!Array.isArray(value)) throw new Error('not a JSON array');
  return value;
}

/** True for a plain JSON object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when two JSON values are equal (same serialisation). */
export function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A deep copy of a JSON value. */
export function clone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
