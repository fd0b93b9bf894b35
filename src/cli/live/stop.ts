/**
 * Running until told to stop, for the long-running commands (`watch`, `log --follow`): SIGINT,
 * SIGTERM, or the reader of stdout going away (EPIPE, e.g. `mailroom watch | head -3`). Output
 * written after the reader left is dropped instead of crashing the process.
 */
import { writeStdout, onStdoutError } from '../output.js';

let pipeClosed = false;
const onPipeClosed: Array<() => void> = [];
let guarded = false;

function guardStdout(): void {
  if (guarded) return;
  guarded = true;
  onStdoutError((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    pipeClosed = true;
    for (const f of onPipeClosed.splice(0)) f();
  });
}

/** Resolves once SIGINT or SIGTERM arrives or stdout is closed by its reader. */
export function untilStopped(): Promise<void> {
  guardStdout();
  return new Promise<void>((resolve) => {
    if (pipeClosed) return resolve();
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
    onPipeClosed.push(resolve);
  });
}

/** Writes one line to stdout (dropped once the reader is gone). */
export function writeLine(line: string): void {
  guardStdout();
  if (pipeClosed) return;
  writeStdout(`${line}\n`);
}
