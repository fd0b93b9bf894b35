/**
 * A command's line as data: its words, positionals and options. The command's yargs builder
 * declares them from this ({@link declareLine}), and the direct reader of the hot verbs
 * (src/cli/direct-args.ts) reads a plain command line by the same data without loading yargs, so
 * the two cannot drift apart. Imports only yargs' types.
 */
import type { Argv } from 'yargs';

/** One option of a command line (a subset of yargs' `Options`). */
export interface LineOption {
  /** `string` takes one value (`--o v` or `--o=v`); `boolean` takes none. */
  readonly type: 'string' | 'boolean';
  readonly describe?: string;
  /** A second long name for the same option (`--from` for `--as`). */
  readonly alias?: string;
  /** The only values accepted; yargs refuses any other. */
  readonly choices?: readonly string[];
  /** yargs refuses the line without it (`demandOption`); the direct reader hands such a line to yargs. */
  readonly required?: boolean;
}

/** One positional of a command line, in order; all take a string. */
export interface LinePositional {
  readonly name: string;
  readonly describe: string;
  /** yargs refuses the line without it (`<name>` in the command string). */
  readonly required?: boolean;
}

/** A command's words (`team`, `send`), positionals and own options (the global ones are src/cli/globals.ts's). */
export interface CommandLine {
  readonly words: readonly string[];
  readonly positionals: readonly LinePositional[];
  readonly options: Readonly<Record<string, LineOption>>;
  /** Options that yargs refuses together. */
  readonly conflicts?: readonly (readonly [string, string])[];
}

/** `some-name` → `someName`: the second key yargs gives each option (and the option checks and the direct reader give too). */
export function camelCase(name: string): string {
  return name.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}

/** Declares `line`'s positionals, options and conflicts on the command's yargs builder `y`. */
export function declareLine<T>(y: Argv<T>, line: CommandLine): Argv<T> {
  let out = y;
  for (const p of line.positionals) out = out.positional(p.name, { type: 'string', describe: p.describe, ...(p.required ? { demandOption: true } : {}) }) as Argv<T>;
  for (const [name, { choices, required, ...o }] of Object.entries(line.options)) out = out.option(name, { ...o, ...(choices ? { choices: [...choices] } : {}), ...(required ? { demandOption: true } : {}) }) as Argv<T>;
  for (const [a, b] of line.conflicts ?? []) out = out.conflicts(a, b);
  return out;
}
