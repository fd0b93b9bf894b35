/**
 * The direct reader of the hot verbs' command lines (`team send`, `inbox`, `task list` …): a
 * plain line, made only of the command's words, its positionals and its own or global long
 * options, is read into the same arguments yargs would give the handler, without loading yargs
 * (~7 ms of a one-shot verb's start-up, docs/performance.md). Anything else (help, a short or
 * unknown option, a repeated one, `--no-…`, `--`, a value starting with `-`, a missing or extra
 * positional, a missing required option, a refused choice, a conflict) is not read here: the caller hands the line to yargs,
 * which accepts it or refuses it with its usual message. So this reader decides only which parser
 * runs, never what a line means; test/unit/cli/direct-args.test.ts holds it to yargs' reading.
 */
import { camelCase, type CommandLine, type LineOption } from './command-line.js';
import { GLOBAL_OPTIONS } from './globals.js';

/** The arguments of a directly read line, as yargs passes them to a handler (both spellings of each name). */
export type DirectArgs = Record<string, unknown> & { _: string[]; $0: string };

/**
 * The global option called `name`, if there is one. Own properties only: `constructor`,
 * `toString` or `__proto__` would otherwise be found on every object (a break test ran
 * `team send bob hi --constructor x` as a send where yargs refuses it).
 */
function globalNamed(name: string): LineOption | undefined {
  return Object.hasOwn(GLOBAL_OPTIONS, name) ? (GLOBAL_OPTIONS as Readonly<Record<string, LineOption>>)[name] : undefined;
}

/** The option called `name` on `line` or globally, with its canonical name; undefined for any other. */
function optionNamed(line: CommandLine, name: string): { key: string; option: LineOption; global: boolean } | undefined {
  for (const [key, option] of Object.entries(line.options)) if (key === name || option.alias === name) return { key, option, global: false };
  const global = globalNamed(name);
  return global ? { key: name, option: global, global: true } : undefined;
}

/** Sets `value` under every name of the option (its name, its alias, their camelCase forms). */
function setOption(args: DirectArgs, key: string, option: LineOption, value: unknown): void {
  for (const name of option.alias ? [key, option.alias] : [key]) {
    args[name] = value;
    args[camelCase(name)] = value;
  }
}

/** The line of `lines` whose words begin `argv` (global options may come before or between them). */
function lineOf(argv: readonly string[], lines: readonly CommandLine[]): CommandLine | undefined {
  return lines.find((line) => {
    let w = 0;
    for (let i = 0; i < argv.length && w < line.words.length; i++) {
      const arg = argv[i] as string;
      if (!arg.startsWith('-')) {
        if (arg !== line.words[w]) return false;
        w++;
        continue;
      }
      const global = globalNamed(arg.slice(2).split('=', 1)[0] as string);
      if (!arg.startsWith('--') || !global) return false;
      if (global.type === 'string' && !arg.includes('=')) i++;
    }
    return w === line.words.length;
  });
}

/**
 * Reads `argv` (without `node` and the script) as one of `lines`, the way yargs would.
 * @returns the line and the handler's arguments (durations not yet in ms: checkOptionValues does
 * that for both parsers), or undefined when yargs must read the line.
 */
export function readDirect(argv: readonly string[], lines: readonly CommandLine[]): { line: CommandLine; args: DirectArgs } | undefined {
  const line = lineOf(argv, lines);
  if (!line) return undefined;
  const args: DirectArgs = { _: [], $0: 'mailroom' };
  const given = new Set<string>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('-')) {
      if (args._.length < line.words.length) args._.push(arg);
      else positionals.push(arg);
      continue;
    }
    if (!arg.startsWith('--') || arg === '--') return undefined;
    const eq = arg.indexOf('=');
    const found = optionNamed(line, eq < 0 ? arg.slice(2) : arg.slice(2, eq));
    // A line's own options count only after its words (before them yargs reads no command's options yet).
    if (!found || given.has(found.key) || (args._.length < line.words.length && !found.global)) return undefined;
    given.add(found.key);
    if (found.option.type === 'boolean') {
      const next = argv[i + 1];
      // yargs takes `--flag=…`, `--flag true` and `--flag false` as the flag's value.
      if (eq >= 0 || next === 'true' || next === 'false') return undefined;
      setOption(args, found.key, found.option, true);
      continue;
    }
    const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || (eq < 0 && value.startsWith('-'))) return undefined;
    if (found.option.choices && !found.option.choices.includes(value)) return undefined;
    setOption(args, found.key, found.option, value);
  }
  if (positionals.length > line.positionals.length) return undefined;
  for (const [n, p] of line.positionals.entries()) {
    const value = positionals[n];
    if (value === undefined && p.required) return undefined;
    if (value !== undefined) args[p.name] = value;
  }
  for (const [a, b] of line.conflicts ?? []) if (given.has(a) && given.has(b)) return undefined;
  for (const [key, option] of Object.entries(line.options)) if (option.required && !given.has(key)) return undefined;
  return { line, args };
}
