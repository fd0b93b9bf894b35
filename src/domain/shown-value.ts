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

/**
 * An epoch-ms time as ISO 8601, or `<ms> (epoch ms, past the calendar)` outside JavaScript's Date
 * range (±8.64e15 ms): a hostile or hand-edited time (a signature field, a lease's `expiresAt`)
 * must print with the rest of its line, never throw a RangeError out of the command.
 */
export function isoOf(ms: number): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? `${ms} (epoch ms, past the calendar)` : d.toISOString();
}
