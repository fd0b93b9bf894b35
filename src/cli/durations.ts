/**
 * Time options (`--timeout`, `--shutdown-timeout`, `--poll-ms`): a bare number is milliseconds, as
 * before; a number with a unit is `500ms`, `30s`, `2m` or `1h` (`1.5s` too, if it comes to whole
 * milliseconds). Anything else is a USAGE error naming the option and the accepted forms.
 */
import { MailroomError } from '../errors.js';
import { MAX_TIMER_MS } from '../domain/timer-delay.js';

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const FORMS = 'a duration such as 500ms, 30s or 2m (a bare number is milliseconds)';

/**
 * The longest duration accepted (ms): 2^31 − 1, the longest timer Node keeps (about 596 h). Past
 * it Node fires the timer after 1 ms, so a `--wait --timeout 600h` spun, warning on every turn.
 */
export const MAX_DURATION_MS = MAX_TIMER_MS;

/**
 * Milliseconds of a duration option's value. @throws USAGE naming `flag` and the accepted forms
 * when the value is negative (`-5s`: said so), is not a duration, is not whole milliseconds, is
 * below `minMs` or above {@link MAX_DURATION_MS}, or the option was given more than once.
 */
export function parseDuration(value: unknown, flag: string, minMs = 0): number {
  if (Array.isArray(value)) throw usage(`${flag} was given ${value.length} times (${value.map((v) => JSON.stringify(v)).join(', ')}); it takes one value.`);
  const text = String(value).trim();
  if (/^-\s*\.?\d/.test(text)) throw usage(`${flag} ${text} is negative: give ${FORMS}${minMs > 0 ? `, at least ${minMs} ms` : ''}.`);
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/i.exec(text);
  const ms = match ? Number(match[1]) * (UNIT_MS[(match[2] ?? 'ms').toLowerCase()] ?? Number.NaN) : Number.NaN;
  if (!Number.isSafeInteger(ms)) throw usage(`${flag} "${text}" is not ${match ? 'a whole number of milliseconds' : 'a duration'}: give ${FORMS}.`);
  if (ms > MAX_DURATION_MS) throw usage(`${flag} ${text} is over the longest accepted: at most 596h (${MAX_DURATION_MS} ms, the longest timer Node keeps): give ${FORMS}.`);
  if (ms < minMs) throw usage(`${flag} ${text} is below the least accepted, ${minMs} ms${flag === '--poll-ms' ? ' (more often only burns CPU)' : ''}: give ${FORMS}.`);
  return ms;
}

/** Smallest safety-net re-read period accepted (ms): below it idle teammates only burn CPU. */
export const MIN_POLL_MS = 10;

/** The duration options and the least value each takes (ms); option-checks.ts parses them. */
export const DURATION_OPTIONS: Readonly<Record<string, number>> = { timeout: 0, 'shutdown-timeout': 0, 'poll-ms': MIN_POLL_MS };

/**
 * A yargs option whose value is a duration (its name must be in {@link DURATION_OPTIONS}): taken
 * as a string, turned into milliseconds before the handler runs. (Not yargs' `coerce`: it would
 * replace the USAGE error by a plain one.) `minMs`: the least value the handler accepts (ms), stated in the help
 * when it is above the 500ms example.
 */
export function durationOption(describe: string, minMs?: number): { type: 'string'; describe: string } {
  if (minMs !== undefined && minMs > 500) return { type: 'string', describe: `${describe}; e.g. 30s, 2m, 1h (at least ${minMs} ms)` };
  return { type: 'string', describe: `${describe}; e.g. 500ms, 30s, 2m` };
}

function usage(message: string): MailroomError {
  return new MailroomError('USAGE', `${message} Run with --help for usage.`);
}

/**
 * For a wait that ran out: when `flag` was typed as a bare number below a second (`--timeout 5`,
 * read as 5 ms), the hint that it was milliseconds and how to write seconds; else ''. `argv` is the
 * command line as typed (the first value of `flag` wins, as in {@link parseDuration}'s refusal of two).
 */
export function bareMillisecondsHint(argv: readonly string[], flag: string): string {
  const at = argv.findIndex((a) => a === flag || a.startsWith(`${flag}=`));
  if (at < 0) return '';
  const word = argv[at] as string;
  const value = (word.includes('=') ? word.slice(flag.length + 1) : argv[at + 1])?.trim();
  if (value === undefined || !/^\d+$/.test(value) || Number(value) >= 1000) return '';
  return ` (${flag} ${value} is ${value} ms: a bare number is milliseconds; ${flag} ${value}s waits ${value} seconds.)`;
}
