/** Bundle entry of `mcp` (dist/mailroom-mcp.cjs, see src/cli/launch.cts). */
import type { CommandModule } from 'yargs';
import type { GlobalArgs } from '../globals.js';
import { runVerb, type DirectCommand } from '../run-direct.js';
import { MCP_LINE, mcpCommand } from '../commands/mcp.js';

const DIRECT = [{ line: MCP_LINE, handler: mcpCommand.handler, longLived: true }] as unknown as DirectCommand[];

/** Runs the CLI with only `mcp` (a plain line without yargs, src/cli/run-direct.ts). @returns the exit code. */
export function main(input: string[]): Promise<number> {
  return runVerb(input, DIRECT, () => [mcpCommand] as unknown as CommandModule<GlobalArgs, never>[]);
}
