/**
 * What is missing or out of range is named, with the fix (new-user trial, session 18):
 * `task claim 1` said yargs' "Missing required argument: as"; `task show` said "is missing an
 * argument" without naming it; `task claim --as dave` (neither an id nor --next) said "(not both)";
 * `team send dave hi --wait raed` printed yargs' two-line "Invalid values: Argument: wait, Given: …";
 * `--clade team list` called the command word "list" an unexpected argument; `task update 8` with
 * nothing to change printed "Updated task #8" and changed nothing. Real CLI processes;
 * nothing is written by any of them.
 */
import { describe, expect, it } from 'vitest';
import { cliRootForFile, mailroom, snapshotBytes } from '../helpers/store-files.js';

const root = cliRootForFile(['team', 'create', 'demo'], ['team', 'spawn', 'dave'], ['task', 'add', 'first']);

/** [args, the code, the whole message after `mailroom: <code>: `]. */
const CASES: [string[], string, string][] = [
  [['task', 'claim', '1'], 'USAGE', '`mailroom task claim` needs --as (Claimant member name). Run mailroom task claim --help for its arguments and examples.'],
  [['store', 'copy', '--team', 'demo'], 'USAGE', '`mailroom store copy` needs --from (Source store: a directory (files) or redis://host:port[/db]) and --to (Target store: a directory (files) or redis://host:port[/db]). Run mailroom store copy --help for its arguments and examples.'],
  [['task', 'show'], 'USAGE', '`mailroom task show` needs <id> (Task id). Run mailroom task show --help for its arguments and examples.'],
  [['message', 'show'], 'USAGE', '`mailroom message show` needs <id> (The message\'s msg_id (printed by `team send`, `inbox --status`), or a unique prefix of at least 6 characters). Run mailroom message show --help for its arguments and examples.'],
  [['team', 'stop'], 'USAGE', '`mailroom team stop` needs <name> (Teammate to stop). Run mailroom team stop --help for its arguments and examples.'],
  [['team', 'create', '-demo'], 'USAGE', '`mailroom team create` needs <team> (Team name (^[a-z0-9][a-z0-9-]{0,63}$)). "-demo" was read as an option. A text that begins with "-" goes after --, as `-- -demo` at the end of the line. Run mailroom team create --help for its arguments and examples.'],
  [['task', 'add', '--force'], 'USAGE', 'mailroom task add: unknown option --force. A text that begins with "-" goes after --, as `-- --force` at the end of the line. Run with --help for usage.'],
  [['task', 'update', '1'], 'USAGE', 'Nothing to change: give `mailroom task update 1` one of --status, --owner, --subject, --description, --active-form, --blocked-by, --blocks, --remove-blocked-by, --remove-blocks, --metadata. See the task with `mailroom task show 1`.'],
  [['task', 'update', '1', '--as', 'dave'], 'USAGE', 'Nothing to change: give `mailroom task update 1` one of --status, --owner, --subject, --description, --active-form, --blocked-by, --blocks, --remove-blocked-by, --remove-blocks, --metadata. See the task with `mailroom task show 1`.'],
  [['task', 'claim', '--as', 'dave'], 'INVALID_ARGUMENT', 'Give a task id or --next: `mailroom task claim <id> --as dave`, or `mailroom task claim --next --as dave` for the lowest-id ready task.'],
  [['task', 'claim', '1', '--next', '--as', 'dave'], 'INVALID_ARGUMENT', 'Give a task id or --next, not both.'],
  [['team', 'send', 'dave', 'hi', '--wait', 'raed'], 'INVALID_ARGUMENT', '--wait "raed": use one of delivered, read, replied. Did you mean read?'],
  // A bare option before another (trial: it said `--wait "": use one of …`).
  [['team', 'send', 'dave', 'hi', '--wait', '--timeout', '5s'], 'INVALID_ARGUMENT', '--wait needs a value: use one of delivered, read, replied.'],
  [['team', 'spawn', 'erin', '--backend', 'procss'], 'INVALID_ARGUMENT', '--backend "procss": use one of in-process, process, tmux. Did you mean process?'],
  [['task', 'list', '--status', 'done'], 'INVALID_ARGUMENT', '--status "done": use one of pending, in_progress, completed. Did you mean completed?'],
  [['task', 'update', '1', '--status', 'complete'], 'INVALID_ARGUMENT', '--status "complete": use one of pending, in_progress, completed, deleted. Did you mean completed?'],
  [['task', 'update', '1', '--status', 'in-progress'], 'INVALID_ARGUMENT', '--status "in-progress": use one of pending, in_progress, completed, deleted. Did you mean in_progress?'],
  [['--clade', 'team', 'list'], 'USAGE', 'mailroom team list: unknown option --clade. Did you mean --claude? Run with --help for usage.'],
];

describe('a missing or out-of-range argument is named, with the fix', () => {
  it.each(CASES)('mailroom %j: exit 2, %s, nothing written', async (args, code, expected) => {
    const before = await snapshotBytes(root());
    const run = await mailroom(root(), ...args);
    expect(run.code, run.stderr).toBe(2);
    // A command in backticks carries the line's store and team (hint-scope), so pasting it acts on the same store.
    expect(run.stderr.replace(/`mailroom --root \S+ (--team \S+ )?/g, '`mailroom ')).toBe(`mailroom: ${code}: ${expected}\n`);
    expect(await snapshotBytes(root())).toEqual(before);
  });

  it('with --json, the missing names are in the details', async () => {
    const run = await mailroom(root(), '--json', 'task', 'claim', '1');
    expect(run.code).toBe(2);
    const error = (JSON.parse(run.stderr) as { error: { code: string; details: { missing: string[] } } }).error;
    expect(error).toMatchObject({ code: 'USAGE', details: { missing: ['--as'] } });
  });

  it('with --json, a value outside its choices names the option, the value and the choices', async () => {
    for (const args of [['team', 'spawn', 'erin', '--backend', 'procss'], ['task', 'list', '--status', 'done']]) {
      const run = await mailroom(root(), '--json', ...args);
      expect(run.code, args.join(' ')).toBe(2);
      const error = (JSON.parse(run.stderr) as { error: { code: string; details: Record<string, unknown> } }).error;
      const [option, value] = args.slice(-2);
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.details).toMatchObject({ option, value });
      expect(error.details.choices).toEqual(expect.arrayContaining([option === '--backend' ? 'process' : 'completed']));
    }
  });

  it('an extra word that is no command word is still named after an unknown option', async () => {
    const run = await mailroom(root(), 'team', 'list', 'extra', '--bogus');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unexpected argument "extra"');
    expect(run.stderr).toContain('unknown option --bogus');
  });
});
