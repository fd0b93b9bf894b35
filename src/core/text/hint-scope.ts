/**
 * Error messages end with a command to run next (`mailroom team create demo`). When the failing
 * command pointed at a store with `--root`, `--claude` or `--team`, the suggested command must
 * carry the same options, or copying it would act on ~/.mailroom or on another team.
 */

import { resolve } from 'node:path';
import { MailroomError } from '../../errors.js';
import { redactUrl } from '../../store/open.js';
import { shellQuote } from './shell-quote.js';

/** Global options of a command line that decide which store and team it acts on, e.g. `['--root', '/tmp/x']`. */
export type HintScope = readonly string[];


/** The value of `--name value` or `--name=value` in `argv` (the last one wins, as yargs does); stops at `--`. */
export function optionValue(argv: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < argv.length && argv[i] !== '--'; i++) {
    const arg = argv[i] as string;
    if (arg === `--${name}` && i + 1 < argv.length) value = argv[++i];
    else if (arg.startsWith(`--${name}=`)) value = arg.slice(name.length + 3);
  }
  return value;
}

/**
 * `--name value`, or `--name=value` when the value begins with `-` (yargs would read `--name -x`
 * as two options), quoted for a shell.
 */
function option(name: string, value: string): string[] {
  return value.startsWith('-') ? [`--${name}=${shellQuote(value)}`] : [`--${name}`, shellQuote(value)];
}

/**
 * The store- and team-selecting options of a raw command line (`--store`, `--root`, `--claude`, `--team`),
 * in a form ready to paste into a suggested command.
 */
export function hintScope(argv: readonly string[]): HintScope {
  const scope: string[] = [];
  const store = optionValue(argv, 'store');
  // The password never goes into a message (it would land in terminals and logs): `***` stands for it.
  if (store !== undefined) scope.push(...option('store', redactUrl(store)));
  const root = optionValue(argv, 'root');
  if (root !== undefined) scope.push(...option('root', root));
  const claude = argv.slice(0, argv.includes('--') ? argv.indexOf('--') : argv.length);
  if (claude.includes('--claude') || claude.includes('--claude=true')) scope.push('--claude');
  const team = optionValue(argv, 'team');
  if (team !== undefined) scope.push(...option('team', team));
  return scope;
}

/**
 * Rewrites every backticked suggestion `` `mailroom <args>` `` in `message` to carry `scope`.
 * `--team` is left out of `team create` and `team list`, which do not act on one team.
 */
export function scopeHints(message: string, scope: HintScope): string {
  if (scope.length === 0) return message;
  return message.replace(/`mailroom (?!--(?:store|root|claude|team)\b)([^`]*)`/g, (_all, rest: string) => {
    const teamless = /^team (create|list)\b/.test(rest);
    const options = teamless ? dropTeam(scope) : scope;
    return options.length === 0 ? `\`mailroom ${rest}\`` : `\`mailroom ${options.join(' ')} ${rest}\``;
  });
}

function dropTeam(scope: HintScope): string[] {
  const i = scope.indexOf('--team');
  if (i >= 0) return [...scope.slice(0, i), ...scope.slice(i + 2)];
  return scope.filter((arg) => !arg.startsWith('--team='));
}

/**
 * The scope of a store named by one option value (`store copy --to <dir|url>`): `--store <url>`
 * (its password shown as `***`) or `--root <absolute dir>`.
 */
export function storeValueScope(value: string): HintScope {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? option('store', redactUrl(value)) : option('root', resolve(value));
}

/**
 * `err` with its suggested commands scoped to `scope` (see {@link scopeHints}); for an error about
 * another store than the command line's own (e.g. `store copy`'s target), so the later scoping by
 * the command line leaves them alone. Any other value is returned unchanged.
 */
export function withHintScope(err: unknown, scope: HintScope): unknown {
  if (!(err instanceof MailroomError)) return err;
  const message = scopeHints(err.message, scope);
  return message === err.message ? err : new MailroomError(err.code, message, { cause: err, details: err.details });
}
