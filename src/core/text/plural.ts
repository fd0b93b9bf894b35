/**
 * Counts in words, singular or plural as English wants them: `1 message`, `2 messages`, `0 tasks`.
 * Used by the CLI's text output and the watch screen (the TUI), so it lives below both.
 */

/** `plural(1, 'message')` → `1 message`; `plural(3, 'member')` → `3 members`; `many` for irregular plurals. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
