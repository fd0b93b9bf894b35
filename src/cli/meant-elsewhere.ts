/**
 * Unknown options that mean something elsewhere in the CLI, where a "Did you mean" by spelling
 * would mislead: `--all` (an option of `inbox`, `requests`, `dead-letter retry`) typed on a command
 * without it was answered "Did you mean --allow-volatile?" — a global flag that only begins with
 * the same letters (new-user trial: `team stop --all`). Such an option gets what to do instead
 * on the commands listed here, and no spelling suggestion on any other.
 */

/**
 * Option name → command (`team stop`) → the hint that replaces "Did you mean …?" there; `*`
 * (any other command): '' (no suggestion). Commands in the hints are backticked: error output
 * gives them the failing line's --root/--team (core/text/hint-scope.ts).
 */
const MEANT_ELSEWHERE: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  all: {
    'team stop': 'team stop stops one teammate: run `mailroom team stop <name>` for each (`mailroom team show` lists them), or `mailroom team delete <team> --force` to stop them all and delete the team (restorable with `mailroom team restore <team>`).',
    '*': '',
  },
};

/**
 * For the unknown option `name` (without dashes) on `command` (`team stop`): the hint to give in
 * place of a spelling suggestion — '' for none — or undefined when the option is not one of these
 * and the usual "Did you mean" applies.
 */
export function meantElsewhere(name: string, command: string): string | undefined {
  if (!Object.hasOwn(MEANT_ELSEWHERE, name)) return undefined;
  const hints = MEANT_ELSEWHERE[name] as Readonly<Record<string, string>>;
  return Object.hasOwn(hints, command) ? hints[command] : hints['*'];
}
