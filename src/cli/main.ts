/**
 * CLI entry: builds the yargs parser, registers every command module, and maps any error to an
 * exit code in one place. Command modules are light: each handler imports the library code it
 * runs, so a start-up evaluates only the verb it runs (heavy parts — ink, SDKs, MCP — likewise).
 */
import yargs from 'yargs';
import type { CommandModule, MiddlewareFunction } from 'yargs';
import { MailroomError } from '../errors.js';
import { VERSION } from '../version.js';
import { reportError } from './output.js';
import { hintScope } from '../core/text/hint-scope.js';
import { checkOptionValues, type DeclaredOptions } from './option-checks.js';
import { declaredOptionNames, findUnknownCommand, refusedWords, refusedWordsMessage, unknownCommandMessage, type CommandTree } from './usage-hints.js';
import { closeStores, withGlobals, type GlobalArgs } from './globals.js';
import { TEAM_COMMANDS, teamCommand } from './commands/team.js';
import { TASK_COMMANDS, taskCommand } from './commands/task.js';
import { inboxCommand } from './commands/inbox.js';
import { runCommand } from './commands/run.js';
import { agentCommand } from './commands/agent.js';
import { mcpCommand } from './commands/mcp.js';
import { watchCommand } from './commands/watch.js';
import { logCommand } from './commands/log.js';
import { doctorCommand } from './commands/doctor.js';
import { STORE_COMMANDS, storeCommand } from './commands/store.js';
import { bridgeCommand } from './commands/bridge.js';
import { approveCommand, denyCommand, requestsCommand } from './commands/requests.js';
import { MESSAGE_COMMANDS, messageCommand } from './commands/message.js';
import { DEAD_LETTER_COMMANDS, deadLetterCommand } from './commands/dead-letter.js';
import { dashboardCommand } from './commands/dashboard.js';
import { LEASE_COMMANDS, leaseCommand } from './commands/lease.js';

/** Every top-level command. Add new command modules here. */
const COMMANDS: CommandModule<GlobalArgs, never>[] = [
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

/** The first word of a command module's `command` string (`'send <to> [text]'` → `send`). */
function nameOf(module: { command?: string | readonly string[] }): string {
  const command = Array.isArray(module.command) ? module.command[0] : module.command;
  return String(command).split(' ')[0] as string;
}

/** Commands and subcommands, for did-you-mean (see usage-hints.ts). */
const TREE: CommandTree = {
  ...Object.fromEntries(COMMANDS.map((c) => [nameOf(c), []])),
  team: TEAM_COMMANDS.map(nameOf),
  task: TASK_COMMANDS.map(nameOf),
  store: STORE_COMMANDS.map(nameOf),
  message: MESSAGE_COMMANDS,
  'dead-letter': DEAD_LETTER_COMMANDS,
  lease: LEASE_COMMANDS,
  completion: [],
};

/** Runs {@link checkOptionValues}; yargs passes the running command's instance as a second argument (untyped). */
const optionChecks = ((argv: Record<string, unknown>, y: { getOptions(): DeclaredOptions }) => checkOptionValues(argv, y.getOptions())) as unknown as MiddlewareFunction<GlobalArgs>;

/**
 * yargs renders the whole help text of a command before running its handler (usage.cacheHelpMessage,
 * kept to print help if the handler fails later), a large part of a short command's run time. Our
 * fail handler never prints help, so the rendering is skipped; `--help` renders as usual.
 */
function skipHelpPreRender(parser: unknown): void {
  const usage = (parser as { getInternalMethods?(): { getUsageInstance?(): { cacheHelpMessage?: () => void } } }).getInternalMethods?.().getUsageInstance?.();
  if (usage?.cacheHelpMessage) usage.cacheHelpMessage = () => undefined;
}

/**
 * `mailroom completion [bash|zsh]`: yargs prints the script for the shell in $SHELL; a shell named
 * on the command line wins (yargs reads $SHELL when the parser is made, so it is set first).
 */
function completionShell(argv: string[]): string[] {
  const i = argv.indexOf('completion');
  const shell = i >= 0 ? argv[i + 1] : undefined;
  if (argv.includes('--get-yargs-completions')) return argv; // a TAB press, not the `completion` command
  if (shell !== undefined && !shell.startsWith('-') && shell !== 'bash' && shell !== 'zsh') {
    // yargs would print the bash script for any other word, e.g. `completion fish`.
    throw new MailroomError('USAGE', `mailroom completion supports bash and zsh, not "${shell}". Run mailroom completion bash >> ~/.bashrc or mailroom completion zsh >> ~/.zshrc.`, { details: { shell } });
  }
  if (shell !== 'bash' && shell !== 'zsh') return argv;
  process.env.SHELL = `/bin/${shell}`;
  if (shell === 'bash') delete process.env.ZSH_NAME;
  return [...argv.slice(0, i + 1), ...argv.slice(i + 2)];
}

/** The USAGE error for what yargs refused, naming the word typed and the likely meant one. */
function usageError(message: string, argv: readonly string[], y: unknown): MailroomError {
  const unknown = findUnknownCommand(argv, TREE);
  if (unknown) return new MailroomError('USAGE', `${unknownCommandMessage(unknown, TREE)} Run with --help for usage.`, { details: { ...unknown } });
  const words = refusedWords(message);
  if (words) {
    // getOptions() is public in yargs but not in its typings.
    const options = (y as { getOptions?(): { key?: Record<string, unknown> } } | undefined)?.getOptions?.();
    const declared = declaredOptionNames(Object.keys(options?.key ?? {}));
    return new MailroomError('USAGE', `${refusedWordsMessage(words, argv, declared)} Run with --help for usage.`, { details: { refused: words } });
  }
  return new MailroomError('USAGE', `${message}${/[.!?)]$/.test(message) ? '' : '.'} Run with --help for usage.`);
}

/**
 * Runs the CLI with `argv` (without `node` and the script).
 * @returns the process exit code: 0 on success, see docs/cli.md for the others.
 */
export async function main(input: string[]): Promise<number> {
  let exitCode = 0;
  let argv: string[];
  try {
    argv = completionShell(input);
  } catch (err) {
    return reportError(err, input.includes('--json'), hintScope(input));
  }
  const wantsJson = argv.includes('--json');
  const parser = withGlobals(yargs(argv))
    .scriptName('mailroom')
    .usage('$0 <command>\n\nA shared filesystem mailbox and task board for teams of AI agents (Claude Code Agent Teams format).')
    .command(COMMANDS)
    .completion('completion', 'Print a shell completion script: mailroom completion [bash|zsh] >> ~/.bashrc (or ~/.zshrc)')
    .middleware(optionChecks)
    .example('$0 team create demo', 'Create team "demo" in ~/.mailroom (or $MAILROOM_ROOT)')
    .example('$0 watch --claude', "Watch Claude Code's own team live")
    .example('$0 run --example --root /tmp/demo', 'Run the demo team file shipped with mailroom to completion')
    .example('source <($0 completion)', 'Tab completion in this shell')
    .demandCommand(1, 'Name a command: team, task, inbox … (see --help).')
    .strict()
    .help()
    .alias('h', 'help')
    .version(VERSION)
    .detectLocale(false)
    .wrap(Math.min(110, process.stdout.columns || 100))
    .fail((msg, err) => {
      // Throwing stops yargs here: returning would let it run the handler on half-parsed arguments.
      if (err) throw err;
      // Commands run on this same instance: its options are the failing command's.
      throw usageError(msg ?? 'Invalid arguments', argv, parser);
    });
  skipHelpPreRender(parser);
  try {
    await parser.parseAsync();
  } catch (err) {
    exitCode = reportError(err, wantsJson, hintScope(argv));
  } finally {
    await closeStores();
  }
  return exitCode;
}
