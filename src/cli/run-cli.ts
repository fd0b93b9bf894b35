/**
 * The CLI's parser: builds yargs with the given command modules and maps any error to an exit
 * code in one place. The full CLI (src/cli/main.ts) registers every command; a verb's own bundle
 * (src/cli/verbs/, chosen by src/cli/launch.cts) registers only that verb, so its start-up
 * evaluates no other command's code. Did-you-mean hints read the whole tree of names
 * (src/cli/command-names.ts) either way.
 */
import yargs from 'yargs';
import type { CommandModule, FallbackCompletionFunction, MiddlewareFunction } from 'yargs';
import { config as zodConfig } from 'zod';
import { MailroomError } from '../errors.js';
import { shellQuote } from '../core/text/shell-quote.js';
import { VERSION } from '../version.js';
import { helpWidth, reportError, writeStdout } from './output.js';
import { examplesOnTheirOwnLines } from './help-examples.js';
import { BASH_COMPLETION_SCRIPT } from './bash-completion.js';
import { COMPLETION_HELP } from './completion-help.js';
import { commandWords } from './command-words.cjs';
import { hintScope } from '../core/text/hint-scope.js';
import { completeNames, type NameCompletion } from './completion-names.js';
import { bareOptions, checkOptionValues, needsValue, type DeclaredOptions } from './option-checks.js';
import { versionBeforeCommand, commandPath, commandWords as typedCommandWords, dashTextHint, dashWordForMissingText, declaredOptionNames, findUnknownCommand, missingArgumentMessage, missingNamesMessage, refusedWords, refusedWordsMessage, undeclaredOptions, unknownCommandMessage, type CommandUsage } from './usage-hints.js';
import { closeStores, warnAtEveryStart, withGlobals, type GlobalArgs } from './globals.js';
import { COMMAND_TREE as TREE } from './command-names.js';
import { optionPart, putValuesAside, type ValueArgs } from './value-args.js';
import { yargsChoicesError } from './choice.js';
import { meantElsewhere } from './meant-elsewhere.js';

/** Runs {@link checkOptionValues}; yargs passes the running command's instance as a second argument (untyped). */
/** The option checks of a line whose option part is `part` (the options typed without a value are read from it). */
const optionChecks = (part: readonly string[]) => {
  const bare = bareOptions(part);
  return ((argv: Record<string, unknown>, y: { getOptions(): DeclaredOptions }) => checkOptionValues(argv, y.getOptions(), bare)) as unknown as MiddlewareFunction<GlobalArgs>;
};

/**
 * yargs renders the whole help text of a command before running its handler (usage.cacheHelpMessage,
 * kept to print help if the handler fails later), a large part of a short command's run time. Our
 * fail handler never prints help, so the rendering is skipped; `--help` renders as usual.
 */
function skipHelpPreRender(parser: unknown): void {
  const usage = (parser as { getInternalMethods?(): { getUsageInstance?(): { cacheHelpMessage?: () => void } } }).getInternalMethods?.().getUsageInstance?.();
  if (usage?.cacheHelpMessage) usage.cacheHelpMessage = () => undefined;
}

/** The words of a TAB press's line after the program's name (the shell passes `mailroom …`). */
function completionWords(argv: readonly string[]): string[] {
  return argv.slice(argv.indexOf('--get-yargs-completions') + 2);
}

/**
 * A TAB press: the store's team or member names for the word (looked up before yargs runs: its
 * completion must answer synchronously, or it goes on to validate the half-typed line), then
 * yargs' own completions (commands, options) unless the word is an option's value.
 */
function completeWithNames(names: NameCompletion): FallbackCompletionFunction {
  return (_current, _parsed, defaults, done) => {
    if (names.valueOnly) return done(names.names);
    defaults((_err, offered) => done([...names.names, ...(offered ?? [])]));
  };
}

/**
 * `mailroom completion [bash|zsh]` (the first command word): the shell named on the command line,
 * else zsh when $SHELL or $ZSH_NAME says zsh, else bash. bash gets {@link BASH_COMPLETION_SCRIPT}
 * (yargs' with `--team=<TAB>` fixed); zsh gets yargs' own, which reads $SHELL when the parser is
 * made, so it is set first. `--help` prints {@link COMPLETION_HELP}; TAB presses go to yargs.
 * @returns the bash script (or the help) to print, or the arguments for yargs (the shell word removed).
 * @throws MailroomError USAGE for another shell (yargs would print the bash script for `completion fish`).
 */
function completionShell(argv: string[]): { script: string } | { argv: string[] } {
  const words = commandWords(argv);
  if (words?.[0] !== 'completion' || optionPart(argv).includes('--get-yargs-completions')) return { argv };
  if (optionPart(argv).some((a) => a === '--help' || a === '-h')) return { script: COMPLETION_HELP }; // yargs would print the script
  const shell = words[1];
  if (shell !== undefined && shell !== 'bash' && shell !== 'zsh') {
    throw new MailroomError('USAGE', `mailroom completion supports bash and zsh, not "${shell}". Run mailroom completion bash >> ~/.bashrc or mailroom completion zsh >> ~/.zshrc.`, { details: { shell } });
  }
  const zsh = shell === 'zsh' || (shell === undefined && /zsh/.test(`${process.env.SHELL ?? ''} ${process.env.ZSH_NAME ?? ''}`));
  if (!zsh) return { script: BASH_COMPLETION_SCRIPT };
  process.env.SHELL = '/bin/zsh';
  const at = argv.indexOf('completion');
  return { argv: shell === undefined ? argv : [...argv.slice(0, at + 1), ...argv.slice(at + 2)] };
}

/** Commands whose positional is a text (a message, a task subject), which may begin with a dash. */
const TEXT_COMMANDS = new Set(['task add', 'team send', 'team broadcast', 'team ask']);

/**
 * The running command's usage line and option descriptions, from yargs' internals (public in
 * yargs 18, absent from its typings): `getContext().fullCommands` ends with the command's own
 * part (`show <id>`); the usage instance holds each option's `describe`.
 */
function commandUsage(y: unknown): CommandUsage {
  const internal = (y as { getInternalMethods?(): { getContext?(): { fullCommands?: string[] }; getUsageInstance?(): { getDescriptions?(): Record<string, string> } } } | undefined)?.getInternalMethods?.();
  return { line: internal?.getContext?.().fullCommands?.at(-1), descriptions: internal?.getUsageInstance?.().getDescriptions?.() ?? {} };
}

/** The USAGE error for what yargs refused, naming the word typed and the likely meant one. */
function usageError(refused: string, argv: readonly string[], y: unknown, values: ValueArgs): MailroomError {
  const message = values.text(refused);
  const unknown = findUnknownCommand(argv, TREE);
  if (unknown) return new MailroomError('USAGE', `${unknownCommandMessage(unknown, TREE)} Run with --help for usage.`, { details: { ...unknown } });
  // getOptions() is public in yargs but not in its typings.
  const options = (y as { getOptions?(): { key?: Record<string, unknown> } } | undefined)?.getOptions?.();
  const declared = declaredOptionNames(Object.keys(options?.key ?? {}));
  const words = refusedWords(message);
  if (words) return new MailroomError('USAGE', `${refusedWordsMessage(words, argv, declared, TREE)} Run with --help for usage.`, { details: { refused: words } });
  const dashed = dashWordForMissingText(message, argv, declared);
  // yargs checks what is missing before what is unknown: a misspelt option (`--ass` for `--as`) is the cause, named first.
  const undeclared = /^(Missing required argument|Not enough non-option arguments)/.test(message) ? undeclaredOptions(argv, declared) : [];
  if (undeclared.length > 0) {
    const named = refusedWordsMessage(undeclared, argv, declared, TREE);
    // A missing text (`task add "--title"`) may be the dashed word itself: say how to write it, beside any option meant.
    const texted = TEXT_COMMANDS.has(commandPath(argv, TREE).join(' '));
    // An option explained as meant elsewhere (`team stop --all`) was no text either.
    const explained = undeclared.some((w) => meantElsewhere(w, commandPath(argv, TREE).join(' ')));
    const textHint = dashed !== undefined && (texted || !(named.includes('Did you mean') || explained)) ? ` ${dashTextHint(dashed)}` : '';
    return new MailroomError('USAGE', `${named}${textHint} Run with --help for usage.`, { details: { refused: undeclared } });
  }
  const read = dashed === undefined ? '' : ` "${dashed}" was read as an option. ${dashTextHint(dashed)}`;
  const choices = yargsChoicesError(message);
  if (choices !== undefined) return choices;
  const named = missingNamesMessage(message, argv, TREE, commandUsage(y));
  if (named !== undefined) return new MailroomError('USAGE', `${named.needs}${read} ${named.help}`, { details: { missing: named.missing } });
  const missing = dashed === undefined ? missingArgumentMessage(message, argv, TREE) : undefined;
  if (missing !== undefined) return new MailroomError('USAGE', missing);
  return new MailroomError('USAGE', `${message}${/[.!?)]$/.test(message) ? '' : '.'}${read} Run with --help for usage.`);
}

/**
 * A short-option group that holds `h` (`-hi`, `-1h`, `-h=x`), before any `--`: yargs reads it as
 * `-h -i` and prints the help with exit 0, so a message text "-hi" looked sent. Only `-h` and `-f`
 * are short options, so no such group is meant as options.
 */
function helpInGroup(argv: readonly string[]): string | undefined {
  const part = optionPart(argv);
  if (part.includes('--get-yargs-completions')) return undefined; // a TAB press completes what is typed
  // Any single-dash word of 3+ characters with an h before any `=` (`-hi`, `-1h`, `-hé`, `-h=x`).
  return part.find((a) => a.length > 2 && !a.startsWith('--') && /^-[^=\s]*h/.test(a));
}

/** yargs-parser's refusal in the user's words: an option given as the last word, or followed by another option. */
function parserRefusal(message: string): string {
  const missing = /^Not enough arguments following: (.+)$/.exec(message)?.[1];
  if (missing === undefined) return message;
  return needsValue(`${missing.length === 1 ? '-' : '--'}${missing}`);
}

/** Verbs that run for long (a runtime, a watch, a server): zod compiles its parsers for them. */
const LONG_RUNNING = new Set(['agent', 'run', 'watch', 'dashboard', 'bridge']);

/** Processes that live long (and `mcp`, a server too): they show the durability warning at each start, not once an hour. */
const LONG_LIVED = new Set([...LONG_RUNNING, 'mcp']);

/**
 * Runs the CLI with `argv` (without `node` and the script) and the top-level `commands` this
 * bundle registers (src/cli/main.ts: all of them; src/cli/verbs/*.ts: one verb's).
 * @returns the process exit code: 0 on success, see docs/cli.md for the others.
 */
export async function runCli(input: string[], commands: readonly CommandModule<GlobalArgs, never>[]): Promise<number> {
  // A one-shot verb parses a few documents once: zod's generated parsers (new Function per
  // object schema) cost more to compile than they save (docs/decisions.md "Start-up by verb").
  // Any argument spelling a long-running verb keeps them: a wrong guess costs time, never behaviour.
  if (!input.some((a) => LONG_RUNNING.has(a))) zodConfig({ jitless: true });
  if (LONG_LIVED.has(commandWords(input)?.[0] ?? '')) warnAtEveryStart();
  let exitCode = 0;
  let argv: string[];
  try {
    const completion = completionShell(input);
    if ('script' in completion) {
      writeStdout(completion.script);
      return 0;
    }
    argv = completion.argv;
  } catch (err) {
    return reportError(err, optionPart(input).includes('--json'), hintScope(input));
  }
  const wantsJson = optionPart(argv).includes('--json');
  // `mailroom -v` is --version, alone only (no command): after a command `-v` stays an unknown option, never a version printed in place of a send.
  if (optionPart(argv).includes('-v') && typedCommandWords(argv).length === 0) {
    writeStdout(`${VERSION}\n`);
    return 0;
  }
  if (versionBeforeCommand(argv)) {
    const rest = argv.filter((w, i) => !(w === '-v' && i === argv.indexOf('-v'))).map(shellQuote).join(' ');
    return reportError(new MailroomError('USAGE', `-v (the version) takes no command. For the version, give -v alone; to run the command, drop -v: \`mailroom ${rest}\`.`, { details: { refused: ['-v'] } }), wantsJson, hintScope(argv));
  }
  const names = optionPart(argv).includes('--get-yargs-completions') ? await completeNames(completionWords(argv)) : { names: [], valueOnly: false };
  const values = putValuesAside(argv);
  // On the line with the values put aside: a time option's `-1h` is its (negative) value, no help group.
  const grouped = helpInGroup(values.argv);
  if (grouped) return reportError(new MailroomError('USAGE', `unknown option ${grouped} (-h prints the help only alone). A text that begins with "-" goes after --, as \`-- ${grouped}\` at the end of the line; an option's value is written --<option>=${grouped}. Run with --help for usage.`, { details: { refused: [grouped] } }), wantsJson, hintScope(argv));
  // First of all middleware, before yargs' own checks: they and the handler see the texts as typed.
  const restore = ((a: Record<string, unknown>) => values.restore(a)) as unknown as MiddlewareFunction<GlobalArgs>;
  const parser = examplesOnTheirOwnLines(withGlobals(yargs(values.argv)))
    .scriptName('mailroom')
    .usage('$0 <command>\n\nA shared filesystem mailbox and task board for teams of AI agents (Claude Code Agent Teams format).')
    .command(commands as CommandModule<GlobalArgs, never>[])
    .completion('completion', 'Print a shell completion script: mailroom completion [bash|zsh] >> ~/.bashrc (or ~/.zshrc)', completeWithNames(names))
    .middleware(restore, true)
    .middleware(optionChecks(optionPart(argv)))
    .example('$0 team create demo', 'Create team "demo" in ~/.mailroom (or $MAILROOM_ROOT)')
    .example('$0 watch --claude', "Watch Claude Code's own team live")
    .example('$0 run --example --root /tmp/demo --workdir /tmp/demo/work', 'Run the demo team file shipped with mailroom to completion')
    .example('source <($0 completion)', 'Tab completion in this shell')
    .demandCommand(1, 'Name a command: team, task, inbox … (see --help).')
    .strict()
    .help()
    .alias('h', 'help')
    .version('version', 'Show the version number (also -v, given alone)', VERSION)
    .detectLocale(false)
    .wrap(helpWidth(argv))
    .fail((msg, err) => {
      // Throwing stops yargs here: returning would let it run the handler on half-parsed arguments.
      // A YError is yargs' own refusal of the arguments (yargs-parser's "Not enough arguments
      // following: x"), a usage error like msg; any other err was thrown by a handler.
      if (err && err.name === 'YError') throw usageError(parserRefusal(err.message), argv, parser, values);
      if (err) throw err;
      // Commands run on this same instance: its options are the failing command's.
      throw usageError(msg ?? 'Invalid arguments', argv, parser, values);
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
