/**
 * Patches between two page states ({@link WirePatch}): the server diffs each new state against
 * the last one it sent and pushes only what changed; the page applies the patch to its copy. Pure
 * and free of Node modules, so the page (src/dashboard/page/) uses the same code. An item that is
 * the same object in both states is unchanged without being compared (the server reuses the wire
 * objects of unchanged messages and tasks); others are compared as JSON.
 */
import { LIST_KEYS, type WireListName, type WireListPatch, type WirePatch, type WireScalars, type WireState } from './wire.js';

type Item = Record<string, unknown>;
const LISTS = Object.keys(LIST_KEYS) as WireListName[];

function keyOf(list: WireListName, item: unknown): string {
  return String((item as Item)[LIST_KEYS[list]]);
}

function diffList(list: WireListName, before: readonly unknown[], after: readonly unknown[]): WireListPatch<unknown> | undefined {
  const old = new Map(before.map((x) => [keyOf(list, x), x]));
  const keys = after.map((x) => keyOf(list, x));
  const now = new Set(keys);
  const upsert: unknown[] = [];
  const added: string[] = [];
  after.forEach((x, i) => {
    const was = old.get(keys[i]!);
    if (was === undefined) added.push(keys[i]!);
    if (was !== x && (was === undefined || JSON.stringify(was) !== JSON.stringify(x))) upsert.push(x);
  });
  const remove = [...old.keys()].filter((k) => !now.has(k));
  const expected = [...before.map((x) => keyOf(list, x)).filter((k) => now.has(k)), ...added];
  const reordered = expected.length !== keys.length || expected.some((k, i) => k !== keys[i]);
  if (upsert.length === 0 && remove.length === 0 && !reordered) return undefined;
  return { upsert, remove, ...(reordered ? { order: keys } : {}) };
}

/** What turns `before` into `after`, with `after.version` as its version; undefined when nothing changed but the version. */
export function diffStates(before: WireState, after: WireState): WirePatch | undefined {
  const patch: WirePatch = { base: before.version, version: after.version };
  const scalars: Partial<Record<string, unknown>> = {};
  let changed = false;
  for (const k of Object.keys(after) as (keyof WireState)[]) {
    if (k === 'version' || (LISTS as string[]).includes(k)) continue;
    const a = before[k];
    const b = after[k];
    if (a !== b && JSON.stringify(a) !== JSON.stringify(b)) scalars[k] = b === undefined ? null : b;
  }
  if (Object.keys(scalars).length > 0) {
    patch.scalars = scalars as Partial<WireScalars>;
    changed = true;
  }
  for (const list of LISTS) {
    const d = diffList(list, before[list], after[list]);
    if (d) {
      (patch as unknown as Record<string, unknown>)[list] = d;
      changed = true;
    }
  }
  return changed ? patch : undefined;
}

function applyList(list: WireListName, items: readonly unknown[], p: WireListPatch<unknown>): unknown[] {
  const byKey = new Map(items.map((x) => [keyOf(list, x), x]));
  const gone = new Set(p.remove);
  const added: string[] = [];
  for (const x of p.upsert) {
    const k = keyOf(list, x);
    if (!byKey.has(k)) added.push(k);
    byKey.set(k, x);
  }
  const order = p.order ?? [...items.map((x) => keyOf(list, x)).filter((k) => !gone.has(k)), ...added];
  return order.map((k) => byKey.get(k)).filter((x) => x !== undefined);
}

/**
 * `state` with `patch` applied: a new object sharing every unchanged item (so a page can skip
 * redrawing them). @throws Error when the patch is not for this version (the page then asks for a
 * new snapshot)
 */
export function applyPatch(state: WireState, patch: WirePatch): WireState {
  if (patch.base !== state.version) throw new Error(`Patch for version ${patch.base}, the page has ${state.version}.`);
  const next = { ...state, version: patch.version } as unknown as Record<string, unknown>;
  for (const [k, v] of Object.entries(patch.scalars ?? {})) next[k] = v === null ? undefined : v;
  for (const list of LISTS) {
    const p = patch[list] as WireListPatch<unknown> | undefined;
    if (p) next[list] = applyList(list, state[list], p);
  }
  return next as unknown as WireState;
}
