/**
 * Printing: human text to stdout, or JSON with `--json`; errors to stderr. The one place the CLI
 * writes to the terminal (besides the TUI): every other file of src/cli/ writes through the
 * functions here (test/unit/cli-output.test.ts holds it to that).
 */
import { MailroomError, exitCodeFor, fromSystemError } from '../errors.js';
import { terminalSafe } from '../core/text/terminal-text.js';
import { scopeHints, type HintScope } from '../core/text/hint-scope.js';

/** Prints `data` as pretty JSON when `json` is set, else the lines `human()` returns (terminal-safe, see core/text/terminal-text.ts). */
export function emit(json: boolean | undefined, data: unknown, human: () => string | string[]): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
    return;
  }
  const text = human();
  const lines = Array.isArray(text) ? text : [text];
  if (lines.length > 0) process.stdout.write(`${terminalSafe(lines.join('\n'))}\n`);
}

/**
 * The single error boundary: prints the error (as JSON `{error: {code, message, details}}` with
 * `--json`) and returns the exit code for it (see docs/cli.md "Exit codes"). Commands the message
 * suggests get the failing command's `scope` (`--root`, `--claude`, `--team`; see hint-scope.ts).
 */
export function reportError(thrown: unknown, json: boolean, scope: HintScope = []): number {
  const err = fromSystemError(thrown);
  const code = err instanceof MailroomError ? err.code : 'INTERNAL';
  const message = scopeHints(err instanceof Error ? err.message : String(err), scope);
  if (json) {
    const details = err instanceof MailroomError ? err.details : {};
    process.stderr.write(`${JSON.stringify({ error: { code, message, details } })}\n`);
  } else {
    process.stderr.write(`mailroom: ${code}: ${terminalSafe(message)}\n`);
    if (!(err instanceof MailroomError) && err instanceof Error && process.env.MAILROOM_DEBUG) process.stderr.write(`${err.stack}\n`);
  }
  return exitCodeFor(err);
}

/**
 * Writes `text` to stdout as it is (no newline added, not made terminal-safe: the caller did).
 * `done` runs once the text is handed to the OS (before a command exits on purpose). @returns what
 * the stream's `write` returns (false: buffered, wait for 'drain')
 */
export function writeStdout(text: string, done?: () => void): boolean {
  return process.stdout.write(text, done);
}

/** Writes `text` to stderr as it is (warnings, progress lines, hook refusals); see {@link writeStdout}. */
export function writeStderr(text: string, done?: () => void): boolean {
  return process.stderr.write(text, done);
}

/** Calls `listener` on an error of stdout (EPIPE once its reader is gone, e.g. `mailroom watch | head -3`). */
export function onStdoutError(listener: (err: NodeJS.ErrnoException) => void): void {
  process.stdout.on('error', listener);
}

/**
 * The process's terminal streams, for an adapter that draws the screen itself (the `watch` TUI
 * takes them as parameters rather than reaching for `process.stdout`): the one place the CLI
 * hands its streams out.
 */
export function terminalStreams(): { stdout: NodeJS.WriteStream; stdin: NodeJS.ReadStream; stderr: NodeJS.WriteStream } {
  return { stdout: process.stdout, stdin: process.stdin, stderr: process.stderr };
}
