/**
 * Printing: human text to stdout, or JSON with `--json`; errors to stderr (results written to
 * the descriptor directly, see writeOut). The one place the CLI
 * writes to the terminal (besides the TUI): every other file of src/cli/ writes through the
 * functions here (test/unit/cli-output.test.ts holds it to that).
 */
import { writeSync } from 'node:fs';
import { MailroomError, exitCodeFor, fromSystemError } from '../errors.js';
import { terminalSafe } from '../core/text/terminal-text.js';
import { scopeHints, type HintScope } from '../core/text/hint-scope.js';

/**
 * Set once a stream of the process's stdout or stderr is in use (a long-running verb writes
 * through it, or a write to the descriptor failed): from then on every write goes through the
 * stream, so nothing is written out of order behind text the stream still buffers.
 */
let streamsInUse = false;

/**
 * Writes `text` to descriptor 1 or 2 directly (`fs.writeSync`) until the streams are in use:
 * `process.stdout` is built on first use, and building it costs a one-shot verb ~2 ms on a file
 * and more on a pipe or terminal (node:stream, net, tty), which printing one result does not need.
 * Once the reader of a pipe has gone (EPIPE), the rest is dropped, quietly, as `head` expects; a
 * descriptor that refuses otherwise (EAGAIN on a non-blocking pipe) hands the rest to the stream.
 */
function writeOut(fd: 1 | 2, text: string): void {
  const stream = (): NodeJS.WriteStream => (fd === 1 ? process.stdout : process.stderr);
  if (streamsInUse) {
    stream().write(text);
    return;
  }
  if (readerGone.has(fd)) return;
  const bytes = Buffer.from(text);
  let at = 0;
  try {
    while (at < bytes.length) at += writeSync(fd, bytes, at);
  } catch (err) {
    // The reader has gone (`mailroom inbox --json | head -1`): nobody is left to read the rest.
    if ((err as NodeJS.ErrnoException).code === 'EPIPE') {
      readerGone.add(fd);
      return;
    }
    streamsInUse = true;
    stream().write(bytes.subarray(at));
  }
}

/** Descriptors whose reader has gone (EPIPE): written no more. */
const readerGone = new Set<1 | 2>();

/** Prints `data` as pretty JSON when `json` is set, else the lines `human()` returns (terminal-safe, see core/text/terminal-text.ts). */
export function emit(json: boolean | undefined, data: unknown, human: () => string | string[]): void {
  if (json) {
    writeOut(1, `${JSON.stringify(data, null, 2)}\n`);
    return;
  }
  const text = human();
  const lines = Array.isArray(text) ? text : [text];
  if (lines.length > 0) writeOut(1, `${terminalSafe(lines.join('\n'))}\n`);
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
    writeOut(2, `${JSON.stringify({ error: { code, message, details } })}\n`);
  } else {
    writeOut(2, `mailroom: ${code}: ${terminalSafe(message)}\n`);
    if (!(err instanceof MailroomError) && err instanceof Error && process.env.MAILROOM_DEBUG) writeOut(2, `${err.stack}\n`);
  }
  return exitCodeFor(err);
}

/**
 * Writes `text` to stdout as it is (no newline added, not made terminal-safe: the caller did).
 * `done` runs once the text is handed to the OS (before a command exits on purpose). @returns what
 * the stream's `write` returns (false: buffered, wait for 'drain')
 */
export function writeStdout(text: string, done?: () => void): boolean {
  streamsInUse = true;
  return process.stdout.write(text, done);
}

/** Writes `text` to stderr as it is (warnings, progress lines, hook refusals); see {@link writeStdout}. */
export function writeStderr(text: string, done?: () => void): boolean {
  streamsInUse = true;
  return process.stderr.write(text, done);
}

/** Calls `listener` on an error of stdout (EPIPE once its reader is gone, e.g. `mailroom watch | head -3`). */
export function onStdoutError(listener: (err: NodeJS.ErrnoException) => void): void {
  streamsInUse = true;
  process.stdout.on('error', listener);
}

/**
 * The process's terminal streams, for an adapter that draws the screen itself (the `watch` TUI
 * takes them as parameters rather than reaching for `process.stdout`): the one place the CLI
 * hands its streams out.
 */
export function terminalStreams(): { stdout: NodeJS.WriteStream; stdin: NodeJS.ReadStream; stderr: NodeJS.WriteStream } {
  streamsInUse = true;
  return { stdout: process.stdout, stdin: process.stdin, stderr: process.stderr };
}

/**
 * The width (columns) yargs lays help out in: the terminal's, at most 110, when `argv` asks for
 * help (`--help`, `-h`: the only way help is printed; usage errors print their own hints), else
 * 100. Reading the terminal's width builds the stdout stream (see writeOut), which a verb that
 * prints no help need not pay for.
 */
export function helpWidth(argv: readonly string[]): number {
  if (!argv.some((a) => a === '--help' || a === '-h')) return 100;
  streamsInUse = true;
  return Math.min(110, process.stdout.columns || 100);
}
