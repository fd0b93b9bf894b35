/**
 * An unknown or misspelt option is named as typed, with the closest option the command has, on
 * every verb — also when yargs would first complain about what the misspelling left missing
 * (new-user trial, session 17: `task claim 3 --ass dave` said "Missing required argument: as";
 * `log --follow --actr x` named the command `log x`). And `mailroom -v`, alone, is the version.
 * Real CLI processes.
 */
import { describe, expect, it } from 'vitest';
import { cliRootForFile, mailroom, mailroomOk, snapshotBytes } from '../helpers/store-files.js';

const root = cliRootForFile(['team', 'create', 'demo'], ['team', 'spawn', 'dave'], ['task', 'add', 'first']);

/** [args, the message expected after `mailroom: USAGE: `]. */
const CASES: [string[], string][] = [
  [['task', 'claim', '1', '--ass', 'dave'], 'mailroom task claim: unknown option --ass. Did you mean --as?'],
  [['task', 'claim', '1', '--ass=dave'], 'mailroom task claim: unknown option --ass. Did you mean --as?'],
  [['log', '--follow', '--actr', 'x'], 'mailroom log: unknown option --actr. Did you mean --actor?'],
  [['log', '--actr', 'x'], 'mailroom log: unknown option --actr. Did you mean --actor?'],
  [['inbox', 'dave', '--unred'], 'mailroom inbox: unknown option --unred. Did you mean --unread?'],
  [['team', 'send', 'dave', '--fro', 'x'], 'mailroom team send: unknown option --fro. Did you mean --from?'],
  [['team', 'send', 'dave', 'hi', '--sumary', 'x'], 'mailroom team send: unknown option --sumary. Did you mean --summary?'],
  [['task', 'update', '1', '--stauts', 'completed'], 'mailroom task update: unknown option --stauts. Did you mean --status?'],
  [['team', 'spawn', '--modle', 'x'], 'mailroom team spawn: unknown option --modle. Did you mean --model?'],
  [['dashboard', '--prot', '1'], 'mailroom dashboard: unknown option --prot. Did you mean --port?'],
  [['task', 'list', '--stat', 'pending'], 'mailroom task list: unknown option --stat. Did you mean --status?'],
  [['doctor', '--fx'], 'mailroom doctor: unknown option --fx. Did you mean --fix?'],
];

describe('an unknown option is named, with the option meant', () => {
  it.each(CASES)('mailroom %j: exit 2, the option named once, nothing written', async (args, expected) => {
    const before = await snapshotBytes(root());
    const run = await mailroom(root(), ...args);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toBe(`mailroom: USAGE: ${expected} Run with --help for usage.\n`);
    expect(await snapshotBytes(root())).toEqual(before);
  });

  it('with --json, the refused option is in the details', async () => {
    const run = await mailroom(root(), '--json', 'task', 'claim', '1', '--ass', 'dave');
    expect(run.code).toBe(2);
    const error = (JSON.parse(run.stderr) as { error: { code: string; details: { refused: string[] } } }).error;
    expect(error).toMatchObject({ code: 'USAGE', details: { refused: ['ass'] } });
  });

  it('a required option that is simply missing is still named as missing', async () => {
    const run = await mailroom(root(), 'task', 'claim', '1');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('task claim` needs --as (Claimant member name).');
  });

  it('a dashed word with no option near it still gets the "after --" hint when the text is missing', async () => {
    const run = await mailroom(root(), 'task', 'add', '--force');
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('mailroom: USAGE: mailroom task add: unknown option --force. A text that begins with "-" goes after --, as `-- --force` at the end of the line. Run with --help for usage.\n');
  });
});

describe('mailroom -v', () => {
  it('alone (or after global options only) prints the version, as --version does', async () => {
    const version = (await mailroomOk(root(), '--version')).stdout;
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    const short = await mailroom(root(), '-v');
    expect(short).toEqual({ code: 0, stdout: version, stderr: '' });
  });

  it.each([{ args: ['-v', 'team', 'list'] }, { args: ['-v', 'team', 'send', 'dave', 'hi'] }, { args: ['--team', 'demo', '-v', 'task', 'list'] }])('before a command, $args, it is refused saying -v takes no command (new-user trial: "unexpected argument list")', async ({ args }) => {
    const before = await snapshotBytes(root());
    const run = await mailroom(root(), ...args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const command = ['--root', root(), ...args.filter((w) => w !== '-v')].join(' ');
    expect(run.stderr).toBe(`mailroom: USAGE: -v (the version) takes no command. For the version, give -v alone; to run the command, drop -v: \`mailroom ${command}\`.\n`);
    expect(await snapshotBytes(root())).toEqual(before);
  });

  it('after a command it is no version: `team send dave -v` is refused, nothing sent', async () => {
    const before = await snapshotBytes(root());
    const run = await mailroom(root(), 'team', 'send', 'dave', '-v');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('unknown option -v');
    expect(await snapshotBytes(root())).toEqual(before);
  });
});
