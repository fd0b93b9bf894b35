/**
 * CLI entry: builds the yargs parser, registers every command module, and maps any error to an
 * exit code in one place. Command modules are light; heavy parts (ink, SDKs) load inside handlers.
 */
import yargs from 'yargs';
import type { CommandModule, MiddlewareFunction } from 'yargs';
import { MailroomError } from '../errors.js';
import { reportError } from './output.js';
import { hintScope } from './hint-scope.js';
import { checkOptionValues, type DeclaredOptions } from './option-checks.js';
import { closeStores, withGlobals, type GlobalArgs } from './globals.js';
import { teamCommand } from './commands/team.js';
import { taskCommand } from './commands/task.js';
import { inboxCommand } from './commands/inbox.js';
import { runCommand } from './commands/run.js';
import { agentCommand } from './commands/agent.js';
import { mcpCommand } from './commands/mcp.js';
import { watchCommand } from './commands/watch.js';
import { logCommand } from './commands/log.js';
import { doctorCommand } from './commands/doctor.js';

/** Every top-level command. Add new command modules here. */
const COMMANDS: CommandModule<GlobalArgs, never>[] = [
  teamCommand,
  taskCommand,
  inboxCommand,
  runCommand,
  agentCommand,
  mcpCommand,
  watchCommand,
  logCommand,
  doctorCommand,
] as unknown as CommandModule<GlobalArgs, never>[];

/** Runs {@link checkOptionValues}; yargs passes the running command's instance as a second argument (untyped). */
const optionChecks = ((argv: Record<string, unknown>, y: { getOptions(): DeclaredOptions }) => checkOptionValues(argv, y.getOptions())) as unknown as MiddlewareFunction<GlobalArgs>;

/**
 * Runs the CLI with `argv` (without `node` and the script).
 * @returns the process exit code: 0 on success, see docs/cli.md for the others.
 */
export async function main(argv: string[]): Promise<number> {
  let exitCode = 0;
  const wantsJson = argv.includes('--json');
  const parser = withGlobals(yargs(argv))
    .scriptName('mailroom')
    .usage('$0 <command>\n\nA shared filesystem mailbox and task board for teams of AI agents (Claude Code Agent Teams format).')
    .command(COMMANDS)
    .middleware(optionChecks)
    .example('$0 team create demo', 'Create team "demo" in ~/.mailroom (or $MAILROOM_ROOT)')
    .example('$0 watch --claude', "Watch Claude Code's own team live")
    .example('$0 run fixtures/demo/team.yaml --root /tmp/demo', 'Run a team file to completion')
    .demandCommand(1, 'Name a command: team, task, inbox … (see --help).')
    .strict()
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .version()
    .wrap(Math.min(110, process.stdout.columns || 100))
    .fail((msg, err) => {
      // Throwing stops yargs here: returning would let it run the handler on half-parsed arguments.
      if (err) throw err;
      const text = msg.startsWith('Did you mean') ? `Unknown command. ${msg}` : msg;
      throw new MailroomError('USAGE', `${text}${/[.!?)]$/.test(text) ? '' : '.'} Run with --help for usage.`);
    });
  try {
    await parser.parseAsync();
  } catch (err) {
    exitCode = reportError(err, wantsJson, hintScope(argv));
  } finally {
    await closeStores();
  }
  return exitCode;
}
