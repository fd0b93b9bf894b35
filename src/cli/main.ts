/**
 * CLI entry of the full bundle (dist/mailroom.cjs): registers every command module and runs the
 * parser (src/cli/run-cli.ts). Command modules are light: each handler imports the library code
 * it runs, so a start-up evaluates only the verb it runs (heavy parts — ink, SDKs, MCP —
 * likewise). The hot verbs also have bundles of their own (src/cli/verbs/), which the launcher
 * picks from the command words (src/cli/launch.cts).
 */
import type { CommandModule } from 'yargs';
import type { GlobalArgs } from './globals.js';
import { runCli } from './run-cli.js';
import { teamCommand } from './commands/team.js';
import { taskCommand } from './commands/task.js';
import { inboxCommand } from './commands/inbox.js';
import { runCommand } from './commands/run.js';
import { agentCommand } from './commands/agent.js';
import { mcpCommand } from './commands/mcp.js';
import { watchCommand } from './commands/watch.js';
import { logCommand } from './commands/log.js';
import { doctorCommand } from './commands/doctor.js';
import { storeCommand } from './commands/store.js';
import { bridgeCommand } from './commands/bridge.js';
import { approveCommand, denyCommand, requestsCommand } from './commands/requests.js';
import { messageCommand } from './commands/message.js';
import { deadLetterCommand } from './commands/dead-letter.js';
import { dashboardCommand } from './commands/dashboard.js';
import { leaseCommand } from './commands/lease.js';

/** Every top-level command. Add new command modules here (and their names to command-names.ts). */
export const COMMANDS: CommandModule<GlobalArgs, never>[] = [
  teamCommand,
  taskCommand,
  inboxCommand,
  messageCommand,
  deadLetterCommand,
  runCommand,
  agentCommand,
  mcpCommand,
  watchCommand,
  dashboardCommand,
  leaseCommand,
  logCommand,
  doctorCommand,
  storeCommand,
  bridgeCommand,
  requestsCommand,
  approveCommand,
  denyCommand,
] as unknown as CommandModule<GlobalArgs, never>[];

/**
 * Runs the CLI with `argv` (without `node` and the script).
 * @returns the process exit code: 0 on success, see docs/cli.md for the others.
 */
export function main(input: string[]): Promise<number> {
  return runCli(input, COMMANDS);
}
