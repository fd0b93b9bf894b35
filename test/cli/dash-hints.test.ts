/**
 * A text that begins with "-" and is read as an option gets a refusal that says how to write it
 * (after --), and `--help` examples can be copied as printed. Both were found by a new user
 * (session 15): `team send bob "-x"` said only "unknown option -x", `task add "-title"` yargs' bare
 * "Not enough non-option arguments", and `team send --help` broke an example inside its quoted text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { cleanEnv, mailroom, mailroomOk, snapshotBytes } from '../helpers/store-files.js';
import { runCli } from '../helpers/cli.js';

let dir: TempDir;

beforeAll(async () => {
  dir = await makeTempDir();
  await mailroomOk(dir.path, 'team', 'create', 'demo');
  await mailroomOk(dir.path, 'team', 'spawn', 'bob');
});
afterAll(() => dir.cleanup());

describe('a text that begins with "-" read as an option', () => {
  it.each([
    [['team', 'send', 'bob', '-x'], '-x'],
    [['task', 'add', '-title'], '-title'],
    [['task', 'add', '--title'], '--title'],
  ])('%j: USAGE, exit 2, naming `-- <text>`, nothing written', async (args, word) => {
    const before = await snapshotBytes(dir.path);
    const run = await mailroom(dir.path, ...args);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('USAGE');
    expect(run.stderr).toContain(`A text that begins with "-" goes after --, as \`-- ${word}\``);
    expect(await snapshotBytes(dir.path)).toEqual(before);
  });

  it('a near option name still gets its suggestion, not the -- hint', async () => {
    const run = await mailroom(dir.path, 'task', 'add', 'x', '--blocked');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Did you mean --blocked-by?');
    expect(run.stderr).not.toContain('goes after --');
  });

  it('written after --, the same text is sent', async () => {
    await mailroomOk(dir.path, 'team', 'send', 'bob', '--', '-x');
    const inbox = await mailroom(dir.path, 'inbox', 'bob');
    expect(inbox.stdout).toMatch(/team-lead\b.*: -x$/m);
  });
});

describe('--help examples', () => {
  it.each([[['team', 'send']], [['agent']], [['bridge']], [['log']]])('%j: every example command is one whole line, its description a comment line before it', async (verb) => {
    const run = await runCli([...verb, '--help'], { ...cleanEnv(), COLUMNS: '80' });
    expect(run.code, run.stderr).toBe(0);
    const examples = run.stdout.slice(run.stdout.indexOf('Examples:')).split('\n').slice(1).filter((l) => l.trim() !== '');
    const commands = examples.filter((l) => /^ {2}([A-Z_]+=\S+ )?(mailroom|source) /.test(l));
    expect(commands.length).toBeGreaterThan(0);
    for (const line of commands) {
      // Quotes balance on the line: no command is broken inside a quoted text.
      expect((line.match(/"/g) ?? []).length % 2, line).toBe(0);
      expect((line.match(/'/g) ?? []).length % 2, line).toBe(0);
    }
    // Every line is either a command or a description written as a shell comment.
    for (const line of examples) expect(line, line).toMatch(/^ {2}(# |([A-Z_]+=\S+ )?(mailroom|source) )/);
  });

  it('team send --help prints the long example whole', async () => {
    const run = await runCli(['team', 'send', '--help'], { ...cleanEnv(), COLUMNS: '80' });
    expect(run.stdout).toContain('  # Message researcher as the lead\n  mailroom team send researcher "Start with the 2024 survey" --summary "Where to start"\n');
  });
});
