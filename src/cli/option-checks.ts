/**
 * Checks of parsed option values that yargs does not make, run before any command handler (so a
 * refused value never leaves a half-done change): an option that takes one value given twice (yargs
 * would pass an array on, which commands do not expect), and a number option that is not a whole
 * number ≥ 0 (yargs passes `abc` on as NaN). `--poll-ms` must be at least {@link MIN_POLL_MS}.
 */
import { MailroomError } from '../errors.js';

/** Smallest safety-net re-read period accepted (ms): below it idle teammates only burn CPU. */
export const MIN_POLL_MS = 10;

/** The declared options of the running command, as yargs reports them (`getOptions()`). */
export interface DeclaredOptions {
  array: readonly string[];
  number: readonly string[];
  key: Readonly<Record<string, unknown>>;
}

/** yargs middleware body. @throws INVALID_ARGUMENT naming the option */
export function checkOptionValues(argv: Readonly<Record<string, unknown>>, declared: DeclaredOptions): void {
  for (const name of Object.keys(declared.key)) {
    const value = argv[name];
    if (value === undefined) continue;
    if (Array.isArray(value) && !declared.array.includes(name)) {
      throw usage(`--${name} was given ${value.length} times (${value.map((v) => JSON.stringify(v)).join(', ')}); it takes one value.`);
    }
    if (!declared.number.includes(name)) continue;
    const min = name === 'poll-ms' ? MIN_POLL_MS : 0;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
      throw usage(`--${name} must be a whole number ≥ ${min}${name === 'poll-ms' ? ' (ms; more often only burns CPU)' : ''}; got ${describe(value)}.`);
    }
  }
}

function describe(value: unknown): string {
  return typeof value === 'number' && !Number.isNaN(value) ? String(value) : 'something that is not a number';
}

function usage(message: string): MailroomError {
  return new MailroomError('INVALID_ARGUMENT', `${message} Run with --help for usage.`);
}
