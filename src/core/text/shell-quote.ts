/**
 * Quoting for commands mailroom suggests in messages (`mailroom --root '/tmp/my root' …`), so a
 * pasted suggestion acts on the same path in a POSIX shell.
 */

const SAFE = /^[\w./:@%+=,-]+$/;

/** `value` as one POSIX shell word: unchanged when it holds only plain path characters, else single-quoted. */
export function shellQuote(value: string): string {
  return SAFE.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}
