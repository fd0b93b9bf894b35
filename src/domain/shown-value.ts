/**
 * How a refusal names a value a JavaScript caller passed where the types say otherwise: a string
 * as JSON, another primitive as itself, an object by its kind (never through its own toString,
 * which may be missing or throw).
 */

/** `got` for an INVALID_ARGUMENT message: `"x"`, `42`, `null`, `an array`, `a object`, `a function`. */
export function shownValue(got: unknown): string {
  if (typeof got === 'string') return JSON.stringify(got);
  if (got === null || (typeof got !== 'object' && typeof got !== 'function')) return String(got);
  return Array.isArray(got) ? 'an array' : `a ${typeof got}`;
}
