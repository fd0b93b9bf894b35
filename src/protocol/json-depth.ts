/**
 * Nesting limit for free-form JSON values that mailroom stores (task `metadata`, the fields of a
 * structured message). `JSON.stringify(value, null, 2)`, the format of every file (reference §2),
 * runs out of stack a few thousand levels down, so a deeper value could be accepted and then never
 * written; such values are refused up front instead.
 */

/** Deepest nesting of arrays and objects accepted in a free-form value (levels). */
export const MAX_JSON_DEPTH = 100;

/**
 * True when `value` has arrays or objects nested more than `limit` levels deep (a scalar is 0
 * levels, `[]` and `{}` are 1). Iterative, so any input is safe to check; it stops at the first
 * branch that goes too deep, which also ends the walk of a cyclic object.
 */
export function nestsDeeperThan(value: unknown, limit: number = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth + 1 > limit) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}
