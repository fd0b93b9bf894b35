/**
 * Checks of parsed option values that yargs does not make, run before any command handler (so a
 * refused value never leaves a half-done change): an option that takes one value given twice (yargs
 * would pass an array on, which commands do not expect), and a number option that is not a whole
 * number ≥ 0 (yargs passes `abc` on as NaN). Time options (durations.ts) are turned into
 * milliseconds here, or refused with USAGE naming the accepted forms.
 */
import { MailroomError } from '../errors.js';
import { DURATION_OPTIONS, parseDuration } from './durations.js';

/** The declared options of the running command, as yargs reports them (`getOptions()`). */
export interface DeclaredOptions {
  array: readonly string[];
  number: readonly string[];
  key: Readonly<Record<string, unknown>>;
  alias?: Readonly<Record<string, readonly string[]>>;
}

/** yargs middleware body: checks `argv` and puts durations in it as ms. @throws INVALID_ARGUMENT or USAGE naming the option */
export function checkOptionValues(argv: Record<string, unknown>, declared: DeclaredOptions): void {
  for (const name of Object.keys(declared.key)) {
    const value = argv[name];
    if (value === undefined) continue;
    const minMs = DURATION_OPTIONS[name];
    if (minMs !== undefined) {
      const ms = typeof value === 'number' ? value : parseDuration(value, `--${name}`, minMs);
      argv[name] = ms;
      argv[name.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase())] = ms;
      continue;
    }
    if (Array.isArray(value) && !declared.array.includes(name)) {
      const names = [name, ...(declared.alias?.[name] ?? [])].filter((n) => n.length > 1 && !/[A-Z]/.test(n)).map((n) => `--${n}`).join('/');
      throw usage(`${names} was given ${value.length} times (${value.map((v) => JSON.stringify(v)).join(', ')}); it takes one value.`);
    }
    if (!declared.number.includes(name)) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      throw usage(`--${name} must be a whole number ≥ 0; got ${describe(value)}.`);
    }
  }
}

function describe(value: unknown): string {
  return typeof value === 'number' && !Number.isNaN(value) ? String(value) : 'something that is not a number';
}

function usage(message: string): MailroomError {
  return new MailroomError('INVALID_ARGUMENT', `${message} Run with --help for usage.`);
}
