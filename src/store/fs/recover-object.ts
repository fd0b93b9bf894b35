/**
 * Merging a task file, a team config or a process record after a displaced write
 * (src/store/fs/locked-write.ts): a writer paused past the stale time renamed its version over one
 * another holder wrote after taking the lock over. Starting from the file as it is now (the paused
 * writer's version plus anything written since), the merge re-applies what the other holder
 * changed relative to the version both started from (`base`), as a three-way merge of JSON:
 * - objects merge key by key, recursively (`metadata` entries of both survive);
 * - arrays merge by element identity (a member by `agentId`, else `name`; a task id by its value):
 *   elements the other holder added go back in after the element they followed, elements it
 *   removed are removed again, elements both have merge recursively;
 * - a plain value the other holder changed is set again, unless a later write changed it after the
 *   paused write (the later value stands). Where the paused writer changed that same value
 *   differently, the other holder's value — written and acknowledged first — wins, and the
 *   operation runs again on top of the merged file (`mineKept: false`; {@link withLock}), so its
 *   rules are checked anew: a claim of a task someone claimed meanwhile then fails with
 *   TASK_ALREADY_CLAIMED.
 * Nothing of either writer is lost, and the paused writer reports success only when its change
 * is in the file.
 */
import { formatJson } from './json-file.js';
import type { MergeInput, MergeResult } from './locked-write.js';
import { clone, isRecord, same, setKey } from './recover-inbox.js';

/** The {@link Merge} of JSON-object files. @throws when a version is not an object */
export function mergeObject(input: MergeInput): MergeResult {
  const base = input.base === undefined ? {} : parseObject(input.base);
  const state = { conflict: false, changed: [] as string[] };
  const merged = mergeValue(base, parseObject(input.mine), parseObject(input.replaced), parseObject(input.current), '', state);
  const note = state.changed.length > 0 ? `re-applied the other writer's change of ${[...new Set(state.changed)].join(', ')}` : 'nothing of the version it replaced was missing (a rename by another writer between its link and its rename is not seen: docs/format.md §3)';
  return { text: formatJson(merged), mineKept: !state.conflict, note: state.conflict ? `${note}, over its own change` : note };
}

/** The task keys a write's rules are checked against (owner and fencing token: TASK_FENCED; status: claims, TASK_BLOCKED). */
const RULE_KEYS = ['owner', 'status', 'fencingToken'] as const;

/**
 * The {@link Merge} of task files: {@link mergeObject}, except when the other holder changed a key
 * the paused write's rules were checked against (owner, status, fencing token — a Claude Code lead
 * giving the task to another member). Then the paused write's own change is taken out again (the
 * file becomes what it is now, with the other holder's version re-applied over the paused write's)
 * and the operation runs again on it (`mineKept: false`), so its rules are checked anew: a fenced
 * write of the owner that lost the task fails with TASK_FENCED instead of landing beside the new
 * owner (break test, session 18). @throws when a version is not an object
 */
export function mergeTask(input: MergeInput): MergeResult {
  const base = input.base === undefined ? {} : parseObject(input.base);
  const theirs = parseObject(input.replaced);
  if (!RULE_KEYS.some((k) => !same(base[k], theirs[k]))) return mergeObject(input);
  const undone = mergeObject({ ...input, base: input.mine });
  return { text: undone.text, mineKept: false, note: `${undone.note}; the other writer changed the task's owner, status or fencing token, so its own change was taken out and the operation runs again` };
}

interface MergeState {
  conflict: boolean;
  changed: string[];
}

/** Three-way merge of one value: `theirs`' change relative to `base`, re-applied to `current`. */
function mergeValue(base: unknown, mine: unknown, theirs: unknown, current: unknown, path: string, state: MergeState): unknown {
  if (same(base, theirs) || same(current, theirs)) return current; // not their change, or already in
  if (isRecord(theirs) && isRecord(current)) return mergeRecords(isRecord(base) ? base : {}, isRecord(mine) ? mine : {}, theirs, current, path, state);
  if (Array.isArray(theirs) && Array.isArray(current)) return mergeArrays(Array.isArray(base) ? base : [], Array.isArray(mine) ? mine : [], theirs, current, path, state);
  if (!same(current, mine)) return current; // changed again after the paused write: the later value stands
  if (!same(mine, base)) state.conflict = true; // both changed it: theirs wins, the operation runs again
  state.changed.push(path || '(file)');
  return clone(theirs);
}

function mergeRecords(base: Record<string, unknown>, mine: Record<string, unknown>, theirs: Record<string, unknown>, current: Record<string, unknown>, path: string, state: MergeState): Record<string, unknown> {
  const result = clone(current);
  for (const key of new Set([...Object.keys(base), ...Object.keys(theirs)])) {
    if (same(base[key], theirs[key])) continue;
    setKey(result, key, mergeValue(base[key], mine[key], theirs[key], current[key], path ? `${path}.${key}` : key, state));
  }
  return result;
}

function mergeArrays(base: unknown[], mine: unknown[], theirs: unknown[], current: unknown[], path: string, state: MergeState): unknown[] {
  const baseById = new Map(base.map((e) => [elementIdentity(e), e]));
  const mineById = new Map(mine.map((e) => [elementIdentity(e), e]));
  const theirsById = new Map(theirs.map((e) => [elementIdentity(e), e]));
  const where = path || '(file)';
  let result = current
    .filter((e) => {
      const id = elementIdentity(e);
      const removed = baseById.has(id) && !theirsById.has(id); // removed by them
      if (removed) state.changed.push(where);
      return !removed;
    })
    .map((e) => {
      const id = elementIdentity(e);
      return theirsById.has(id) ? mergeValue(baseById.get(id), mineById.get(id), theirsById.get(id), e, where, state) : e;
    });
  const present = new Set(result.map(elementIdentity));
  for (let i = 0; i < theirs.length; i++) {
    const id = elementIdentity(theirs[i]);
    if (present.has(id) || baseById.has(id) || mineById.has(id)) continue; // not added by them, or removed since
    let at = 0;
    for (let j = i - 1; j >= 0 && at === 0; j--) {
      const k = result.findIndex((e) => elementIdentity(e) === elementIdentity(theirs[j]));
      if (k >= 0) at = k + 1;
    }
    result = [...result.slice(0, at), clone(theirs[i]), ...result.slice(at)];
    present.add(id);
    state.changed.push(where);
  }
  return result;
}

/** Identity of an array element: a member by `agentId` (else `name`), an object with `id` by it, anything else by its JSON. */
function elementIdentity(e: unknown): string {
  if (isRecord(e)) {
    if (typeof e.agentId === 'string') return `agent:${e.agentId}`;
    if (typeof e.name === 'string') return `name:${e.name}`;
    if (typeof e.id === 'string' || typeof e.id === 'number') return `id:${String(e.id)}`;
  }
  return `v:${JSON.stringify(e)}`;
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
  return { text: higher ? replaced : input.current, mineKept: true, note: higher ? `kept the higher mark ${replaced}` : 'nothing of the version it replaced was missing (a rename by another writer between its link and its rename is not seen: docs/format.md §3)' };
}

function parseObject(text: string): Record<string, unknown> {
  const value: unknown = JSON.parse(text);
  if (!isRecord(value)) throw new Error('not a JSON object');
  return value;
}
