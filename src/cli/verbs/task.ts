/** Bundle entry of `task` (dist/mailroom-task.cjs, see src/cli/launch.cts). */
import type { CommandModule } from 'yargs';
import type { GlobalArgs } from '../globals.js';
import { runVerb, type DirectCommand } from '../run-direct.js';
import { TASK_LIST_LINE, TASK_SHOW_LINE, taskCommand, taskListCommand, taskShowCommand } from '../commands/task.js';

const DIRECT = [
  { line: TASK_LIST_LINE, handler: taskListCommand.handler },
  { line: TASK_SHOW_LINE, handler: taskShowCommand.handler },
] as unknown as DirectCommand[];

/** Runs the CLI with only `task` (`task list` and `task show` lines without yargs, src/cli/run-direct.ts). @returns the exit code. */
export function main(input: string[]): Promise<number> {
  return runVerb(input, DIRECT, () => [taskCommand] as unknown as CommandModule<GlobalArgs, never>[]);
}
