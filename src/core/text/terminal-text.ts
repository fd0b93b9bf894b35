/**
 * Text from other agents (messages, task subjects, names, descriptions) is shown on the user's
 * terminal. Characters that would act on the terminal instead of printing — escape sequences that
 * clear the screen or set the window title, a carriage return that overwrites the line, bidi
 * overrides that reorder what is shown — are turned into visible escapes first.
 */

/** C0 controls except tab and newline, DEL, C1 controls, bidi embeddings, overrides and isolates. */
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` with every terminal-active character shown as an escape: `\x1b`, `\r`, `\u202e`
 * (tabs and newlines are kept). For human output only; JSON output keeps the exact text.
 */
export function terminalSafe(text: string): string {
  return text.replace(ACTIVE, (c) => {
    const code = c.charCodeAt(0);
    if (c === '\r') return '\\r';
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/**
 * A copy of `value` with {@link terminalSafe} applied to every string in it (inside arrays, plain
 * objects and Map values); other values are kept as they are. For view models shown on a terminal.
 */
export function terminalSafeDeep<T>(value: T): T {
  if (typeof value === 'string') return terminalSafe(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => terminalSafeDeep(v)) as T;
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [k, terminalSafeDeep(v)])) as T;
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = terminalSafeDeep(v);
  return out as T;
}
