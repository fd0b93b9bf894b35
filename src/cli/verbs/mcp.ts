/** Bundle entry of `mcp` (dist/mailroom-mcp.cjs, see src/cli/launch.cts). */
import type { CommandModule } from 'yargs';
import type { GlobalArgs } from '../globals.js';
import { runCli } from '../run-cli.js';
import { mcpCommand } from '../commands/mcp.js';

/** Runs the CLI with only `mcp`. @returns the exit code. */
export function main(input: string[]): Promise<number> {
  return runCli(input, [mcpCommand] as unknown as CommandModule<GlobalArgs, never>[]);
}
