/** Bundle entry of `inbox` (dist/mailroom-inbox.cjs, see src/cli/launch.cts). */
import type { CommandModule } from 'yargs';
import type { GlobalArgs } from '../globals.js';
import { runVerb, type DirectCommand } from '../run-direct.js';
import { INBOX_LINE, inboxCommand } from '../commands/inbox.js';

const DIRECT = [{ line: INBOX_LINE, handler: inboxCommand.handler }] as unknown as DirectCommand[];

/** Runs the CLI with only `inbox` (a plain line without yargs, src/cli/run-direct.ts). @returns the exit code. */
export function main(input: string[]): Promise<number> {
  return runVerb(input, DIRECT, () => [inboxCommand] as unknown as CommandModule<GlobalArgs, never>[]);
}
