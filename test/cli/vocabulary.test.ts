/**
 * One vocabulary across the CLI (issue 14), through the real binary: `--as` on every verb that acts
 * as a member (`--from` an alias on sends), `task update` dependency options like `task add` and
 * their removal, durations on every time option, did-you-mean naming the word typed, and
 * `mailroom completion`.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMember } from '../../src/domain/roster.js';
import { openFsStores } from '../../src/store/open.js';
import { BIN, runCli } from '../helpers/cli.js';
import { cleanEnv, mailroom, mailroomOk, readJson, snapshotBytes } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let dir: TempDir;
let root: string;

interface Entry {
  from: string;
  text: string;
}
interface TaskFile {
  id: string;
  blocks: string[];
  blockedBy: string[];
}

const inbox = (name: string) => readJson<Entry[]>(join(root, `teams/demo/inboxes/${name}.json`));
const task = (id: string) => readJson<TaskFile>(join(root, `tasks/demo/${id}.json`));
const jsonError = (stderr: string) => (JSON.parse(stderr) as { error: { code: string; message: string; details: Record<string, unknown> } }).error;

beforeAll(async () => {
  dir = await makeTempDir('mailroom-vocabulary-');
  root = dir.path;
  await mailroomOk(root, 'team', 'create', 'demo');
  await mailroomOk(root, 'team', 'spawn', 'alice');
  await mailroomOk(root, 'team', 'spawn', 'bob');
  for (const subject of ['one', 'two', 'three', 'four']) await mailroomOk(root, 'task', 'add', subject);
});
afterAll(() => dir.cleanup());

describe('--as names the acting member; --from stays an alias on sends', () => {
  it.each(['--as', '--from'])('team send %s alice', async (flag) => {
    await mailroomOk(root, 'team', 'send', 'bob', `hello via ${flag}`, flag, 'alice');
    expect((await inbox('bob')).at(-1)).toMatchObject({ from: 'alice', text: `hello via ${flag}` });
  });

  it.each(['--as', '--from'])('team broadcast %s bob', async (flag) => {
    await mailroomOk(root, 'team', 'broadcast', `all via ${flag}`, flag, 'bob');
    expect((await inbox('alice')).at(-1)).toMatchObject({ from: 'bob', text: `all via ${flag}` });
    expect((await inbox('team-lead')).at(-1)).toMatchObject({ from: 'bob', text: `all via ${flag}` });
  });

  it('--as and --from together are one option given twice: refused, nothing sent', async () => {
    const before = await snapshotBytes(root);
    const run = await mailroom(root, 'team', 'send', 'bob', 'hi', '--as', 'alice', '--from', 'team-lead');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--as/--from was given 2 times');
    expect(await snapshotBytes(root)).toEqual(before);
  });

  it('a shutdown answer takes --as', async () => {
    await mailroomOk(root, 'team', 'send', 'team-lead', '--as', 'alice', '--shutdown-reject', '--request-id', 'shutdown-1@alice', '--reason', 'busy');
    const last = (await inbox('team-lead')).at(-1);
    expect(last?.from).toBe('alice');
    expect(JSON.parse(last?.text ?? '{}')).toMatchObject({ type: 'shutdown_rejected', requestId: 'shutdown-1@alice', reason: 'busy' });
  });

  it('inbox --as alice lists what inbox alice lists', async () => {
    const byAs = await mailroomOk(root, 'inbox', '--as', 'alice', '--json');
    const byName = await mailroomOk(root, 'inbox', 'alice', '--json');
    expect(JSON.parse(byAs.stdout)).toEqual(JSON.parse(byName.stdout));
    expect((JSON.parse(byAs.stdout) as { agent: string }).agent).toBe('alice');
  });

  it('inbox naming two different members is refused', async () => {
    const run = await mailroom(root, 'inbox', 'alice', '--as', 'bob');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/USAGE: .*"alice" and --as bob/);
  });

  it('agent --as <name> runs the member named (an unknown one is MEMBER_NOT_FOUND), and needs a name', async () => {
    const unknown = await mailroom(root, 'agent', '--as', 'ghost');
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('No teammate named "ghost"');
    const none = await mailroom(root, 'agent');
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--as <name>');
  });

  it('task claim and task update take --as', async () => {
    await mailroomOk(root, 'task', 'claim', '4', '--as', 'bob');
    const run = await mailroomOk(root, 'task', 'update', '4', '--status', 'completed', '--as', 'bob', '--json');
    expect((JSON.parse(run.stdout) as { task: { owner: string; status: string } }).task).toMatchObject({ owner: 'bob', status: 'completed' });
  });
});

describe('task update: dependencies as task add names them, and their removal', () => {
  it('--blocked-by and --blocks add, on both tasks', async () => {
    await mailroomOk(root, 'task', 'update', '3', '--blocked-by', '1,2');
    await mailroomOk(root, 'task', 'update', '1', '--blocks', '2');
    expect(await task('3')).toMatchObject({ blockedBy: ['1', '2'] });
    expect(await task('2')).toMatchObject({ blocks: ['3'], blockedBy: ['1'] });
    expect(await task('1')).toMatchObject({ blocks: ['3', '2'] });
  });

  it('--remove-blocked-by takes a blocker off both tasks and says what is left', async () => {
    const run = await mailroomOk(root, 'task', 'update', '3', '--remove-blocked-by', '1');
    expect(run.stdout).toBe('Updated task #3: pending, blocked by #2\n');
    expect(await task('3')).toMatchObject({ blockedBy: ['2'] });
    expect(await task('1')).toMatchObject({ blocks: ['2'] });
  });

  it('--remove-blocks takes a blocked task off both tasks', async () => {
    await mailroomOk(root, 'task', 'update', '1', '--remove-blocks', '2');
    expect(await task('1')).toMatchObject({ blocks: [] });
    expect(await task('2')).toMatchObject({ blockedBy: [], blocks: ['3'] });
  });

  it('removing a dependency that is not there changes neither task', async () => {
    const [one, four] = [await task('1'), await task('4')];
    await mailroomOk(root, 'task', 'update', '1', '--remove-blocked-by', '4');
    expect(await task('1')).toEqual(one);
    expect(await task('4')).toEqual(four);
  });

  it('the old --add-blocked-by / --add-blocks still work', async () => {
    await mailroomOk(root, 'task', 'update', '2', '--add-blocked-by', '1');
    await mailroomOk(root, 'task', 'update', '4', '--add-blocks', '1');
    expect(await task('2')).toMatchObject({ blockedBy: ['1'] });
    expect(await task('1')).toMatchObject({ blockedBy: ['4'], blocks: ['2'] });
  });
});

describe('time options take 500ms, 30s, 2m; a bare number is milliseconds', () => {
  // A member mailroom did not register (no member record, as Claude Code's own) is asked and waited for;
  // one mailroom registered that nothing runs would be removed at once.
  const foreignMember = (name: string) => openFsStores(root).team.addMember('demo', buildMember({ name, team: 'demo', model: 'x', cwd: root, joinedAt: Date.now() }));

  it.each(['300', '300ms', '0.3s'])('team stop --timeout %s waits 300 ms', async (value) => {
    await foreignMember('carol');
    const run = await mailroom(root, 'team', 'stop', 'carol', '--timeout', value);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('waiting up to 300 ms');
  });

  it('team stop --timeout 2m waits two minutes (read from its notice, then stopped)', async () => {
    await foreignMember('dave');
    const child = spawn(process.execPath, [BIN, '--root', root, 'team', 'stop', 'dave', '--timeout', '2m'], { env: cleanEnv() });
    const notice = await new Promise<string>((resolve) => {
      let text = '';
      child.stderr.on('data', (d: Buffer) => {
        text += String(d);
        if (text.includes('\n')) resolve(text);
      });
    });
    child.kill('SIGKILL');
    expect(notice).toContain('waiting up to 120 s');
    await mailroomOk(root, 'team', 'stop', 'dave', '--force');
  });

  it.each([
    ['team', 'stop', 'alice', '--timeout', '60x'],
    ['team', 'stop', 'alice', '--timeout', '1.5ms'],
    ['team', 'stop', 'alice', '--timeout', ''],
    ['run', 'team.yaml', '--shutdown-timeout', 'soon'],
    ['agent', 'alice', '--poll-ms', '5ms'],
  ])('%s %s %s %s %s: USAGE naming the option and the accepted forms, nothing written', async (...args) => {
    const before = await snapshotBytes(root);
    const run = await mailroom(root, ...args);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/^mailroom: USAGE: --[a-z-]+ /);
    expect(run.stderr).toContain(args.at(-2) as string);
    expect(run.stderr).toContain('500ms, 30s or 2m');
    expect(await snapshotBytes(root)).toEqual(before);
  });
});

describe('did you mean: unknown members, commands and options, naming the word typed', () => {
  it('team send Alice → alice (message and details.suggestion), nothing written', async () => {
    const before = await snapshotBytes(root);
    const run = await mailroom(root, 'team', 'send', 'Alice', 'hi');
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('No recipient named "Alice"');
    expect(run.stderr).toContain('Did you mean "alice"?');
    const json = await mailroom(root, 'team', 'send', 'Alice', 'hi', '--json');
    expect(jsonError(json.stderr)).toMatchObject({ code: 'MEMBER_NOT_FOUND', details: { name: 'Alice', suggestion: 'alice' } });
    expect(await snapshotBytes(root)).toEqual(before);
  });

  it('task claim as a mistyped member names the member meant', async () => {
    const run = await mailroom(root, 'task', 'claim', '2', '--as', 'alcie');
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('No claimant named "alcie"');
    expect(run.stderr).toContain('Did you mean "alice"?');
  });

  it.each([
    [['task', 'get', '1'], 'Unknown command "task get". Did you mean `mailroom --root ROOT task show`?'],
    [['task', 'ls'], 'Unknown command "task ls". Did you mean `mailroom --root ROOT task list`?'],
    [['team', 'lst'], 'Unknown command "team lst". Did you mean `mailroom --root ROOT team list`?'],
    [['sned', 'alice', 'hi'], 'Unknown command "sned". Did you mean `mailroom --root ROOT team send`?'],
    [['send', 'alice', 'hi'], 'Unknown command "send". Did you mean `mailroom --root ROOT team send`?'],
    [['wacth'], 'Unknown command "wacth". Did you mean `mailroom --root ROOT watch`?'],
    [['frobnicate'], 'Unknown command "frobnicate". Commands: team, task, inbox'],
  ])('%j: %s', async (args, says) => {
    const run = await mailroom(root, ...args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^mailroom: USAGE: /);
    expect(run.stderr).toContain(says.replace('ROOT', root));
  });

  it('an unknown command with --json: the typed words and the suggestion in details', async () => {
    const run = await mailroom(root, 'task', 'get', '1', '--json');
    expect(jsonError(run.stderr)).toMatchObject({ code: 'USAGE', details: { typed: 'task get', suggestion: 'task show' } });
  });

  it.each([
    [['task', 'add', 'x', '--blocked', '1'], 'mailroom task add: unknown option --blocked. Did you mean --blocked-by?'],
    [['task', 'add', 'x', '--from', 'alice'], 'mailroom task add: unknown option --from. Did you mean --as?'],
    [['task', 'update', '1', '--remove-blocked', '2'], 'mailroom task update: unknown option --remove-blocked. Did you mean --remove-blocked-by?'],
    [['team', 'send', 'alice', 'hi', '--summry', 's'], 'mailroom team send: unknown option --summry. Did you mean --summary?'],
    [['inbox', '--unred'], 'mailroom inbox: unknown option --unred. Did you mean --unread?'],
    [['task', 'add', 'x', '--bogus'], 'mailroom task add: unknown option --bogus.'],
    [['team', 'send', 'alice', 'hello', 'world'], 'mailroom team send: unexpected argument "world" (quote a message text that has spaces).'],
  ])('%j: %s, nothing written', async (args, says) => {
    const before = await snapshotBytes(root);
    const run = await mailroom(root, ...args);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`mailroom: USAGE: ${says} Run with --help for usage.\n`);
    expect(await snapshotBytes(root)).toEqual(before);
  });
});

describe('mailroom completion', () => {
  it.each([
    ['bash', 'complete -o bashdefault -o default -F _mailroom_yargs_completions mailroom'],
    ['zsh', '#compdef mailroom'],
  ])('completion %s prints a %s script that asks mailroom for completions', async (shell, marker) => {
    const run = await runCli(['completion', shell]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(marker);
    expect(run.stdout).toContain('mailroom --get-yargs-completions');
  });

  it.each([
    ['/usr/bin/zsh', '#compdef mailroom'],
    ['/bin/bash', 'complete -o bashdefault'],
    ['', 'complete -o bashdefault'],
  ])('completion without a shell word follows $SHELL=%j', async (shell, marker) => {
    const run = await runCli(['completion'], cleanEnv({ SHELL: shell }));
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(marker);
  });

  it('the word "completion" elsewhere on the line is a message text, not the completion command', async () => {
    const run = await mailroom(root, 'team', 'send', 'team-lead', 'completion', 'fish');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('mailroom team send: unexpected argument "fish"'); // not "completion supports bash and zsh"
  });

  it('the script calls back into the CLI, which completes commands and options', async () => {
    const subcommands = await runCli(['--get-yargs-completions', 'mailroom', 'task', '']);
    expect(subcommands.stdout.split('\n')).toEqual(expect.arrayContaining(['add', 'list', 'show', 'update', 'claim', 'delete']));
    const options = await runCli(['--get-yargs-completions', 'mailroom', 'task', 'update', '1', '--']);
    expect(options.stdout.split('\n')).toEqual(expect.arrayContaining(['--blocked-by', '--blocks', '--remove-blocked-by', '--remove-blocks', '--as']));
  });
});
