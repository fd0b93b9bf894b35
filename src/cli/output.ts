/**
 * Printing: human text to stdout, or JSON with `--json`; errors to stderr. The one place the CLI
 * writes to the terminal (besides the TUI).
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
