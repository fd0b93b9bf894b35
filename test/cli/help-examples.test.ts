/**
 * Every leaf command's `--help` ends with at least one example in the shape src/cli/help-examples.ts
 * prints — a `# what it does` line, then the whole command on a line of its own — and the examples
 * are real: the ones a new user found missing (dead-letter list, lease release/list/hook,
 * completion) are copied out of the printed help and run, as printed, against a temp team.
 * Real CLI binary in subprocesses; `mailroom` on PATH is a shim that runs this build.
 */
import { execFile } from 'node:child_process';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_TREE } from '../../src/cli/command-names.js';
import { BIN, runCli } from '../helpers/cli.js';
import { cleanEnv } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

/** Every leaf command: a top-level command without subcommands, or one subcommand of a group. */
const LEAVES: string[][] = Object.entries(COMMAND_TREE).flatMap(([top, subs]) => (subs.length === 0 ? [[top]] : subs.map((s) => [top, s])));

/** The examples of a help text: [description, command] pairs, in order. */
function examplesOf(help: string): Array<[string, string]> {
  const at = help.indexOf('\nExamples:\n');
  if (at < 0) return [];
  const lines = help.slice(at + '\nExamples:\n'.length).split('\n').map((l) => l.trim()).filter((l) => l !== '');
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < lines.length; i++) if (lines[i]!.startsWith('# ') && !lines[i + 1]!.startsWith('# ')) out.push([lines[i]!.slice(2), lines[i + 1]!]);
  return out;
}

async function helpOf(words: string[]): Promise<string> {
  const run = await runCli([...words, '--help'], cleanEnv());
  expect(run.code, `${words.join(' ')} --help: ${run.stderr}`).toBe(0);
  return run.stdout;
}

describe('--help examples', () => {
  /** Every leaf's help, read once (4 processes at a time). */
  const helps = new Map<string, string>();
  beforeAll(async () => {
    for (let i = 0; i < LEAVES.length; i += 4) {
      const batch = LEAVES.slice(i, i + 4);
      const read = await Promise.all(batch.map(helpOf));
      batch.forEach((words, j) => helps.set(words.join(' '), read[j]!));
    }
  }, 120_000);

  it('every leaf command has at least one, as a # description line then a whole mailroom command', () => {
    expect(helps.size).toBe(LEAVES.length);
    const missing = [...helps].filter(([, help]) => {
      const examples = examplesOf(help);
      return examples.length === 0 || !examples.every(([, command]) => /(^|\s|\()mailroom\s/.test(command));
    });
    expect(missing.map(([words]) => words)).toEqual([]);
  });

  it('prints no placeholder (…, <x>) where a whole command belongs', () => {
    const placeholders = [...helps.values()].flatMap((help) => examplesOf(help).map(([, command]) => command)).filter((command) => /…|<[a-z]/.test(command));
    expect(placeholders).toEqual([]);
  });
});

describe('the examples a new user found missing run as printed', () => {
  let tmp: TempDir;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    tmp = await makeTempDir('mailroom-help-examples-');
    const shim = join(tmp.path, 'bin', 'mailroom');
    await execFileOk('mkdir', ['-p', join(tmp.path, 'bin'), join(tmp.path, 'work')]);
    await writeFile(shim, `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    await chmod(shim, 0o755);
    env = cleanEnv({ PATH: `${join(tmp.path, 'bin')}:${process.env.PATH ?? ''}`, MAILROOM_ROOT: join(tmp.path, 'root') });
    // In the work dir: a member's cwd is where its lease paths are relative to by default.
    for (const command of ['team create demo', 'team spawn alice', 'team spawn bob', 'team spawn carol', 'team spawn dave', "team send dave 'read the survey'", 'team stop dave']) {
      const run = await inWork(`mailroom ${command}`);
      expect(run.code, `${command}: ${run.stderr}`).toBe(0);
    }
  });
  afterAll(async () => {
    await tmp?.cleanup();
  });

  /** Runs the example of `words`' help whose description starts with `what`, in bash, in the work dir. */
  async function runExample(words: string[], what: string): Promise<{ code: number; stdout: string; stderr: string; command: string }> {
    const example = examplesOf(await helpOf(words)).find(([description]) => description.startsWith(what));
    expect(example, `${words.join(' ')} --help has an example "${what}…"`).toBeDefined();
    const command = example![1];
    return { ...(await inWork(command)), command };
  }

  /** Runs `command` in bash in the work dir (the repository the lease paths are relative to). */
  function inWork(command: string): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((done) => execFile('bash', ['-c', command], { cwd: join(tmp.path, 'work'), env }, (err, stdout, stderr) => done({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr })));
  }

  it('dead-letter list, lease acquire/list/hook/release, completion', { timeout: 120_000 }, async () => {
    const letters = await runExample(['dead-letter', 'list'], 'Unread mail');
    expect(letters.code, letters.stderr).toBe(0);
    expect(letters.stdout).toMatch(/^\S+ +\S+ +team-lead +dave +read the survey$/m);
    const retry = await runExample(['dead-letter', 'retry'], 'Give every dead letter');
    expect(retry.code, retry.stderr).toBe(0);
    expect(retry.stdout).toMatch(/^Re-sent dead letter \S+ to carol as /);

    const acquire = await inWork("mailroom lease acquire 'src/**' --as alice --reason refactor"); // pl-1 in a fresh team, as the release example names
    expect(acquire.code, acquire.stderr).toBe(0);
    expect(acquire.stdout).toContain('pl-1');
    const listed = await runExample(['lease', 'list'], 'Who holds');
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^pl-1 {2}alice {2}exclusive {2}src\/\*\*/);

    const hook = await runExample(['lease', 'hook'], 'Claude Code runs this');
    expect(hook.code, `${hook.command}: ${hook.stderr}`).toBe(2); // Claude Code's blocking exit: alice holds src/a.ts
    expect(hook.stderr).toContain('alice');
    const install = await runExample(['lease', 'hook'], 'Add the hook');
    expect(install.code, install.stderr).toBe(0);
    expect(install.stdout).toMatch(/PreToolUse hook \w+/);

    const release = await runExample(['lease', 'release'], 'alice releases lease pl-1');
    expect(release.code, release.stderr).toBe(0);
    expect(release.stdout).toMatch(/^released pl-1 /);
    const none = await runExample(['lease', 'release'], 'alice releases every lease');
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout.trim()).toBe('No lease to release.');

    const completion = await runExample(['completion'], 'Tab completion in this shell');
    expect(completion.code, completion.stderr).toBe(0);
    const installed = await inWork(`${completion.command} && complete -p mailroom`);
    expect(installed.stdout).toContain('-F _mailroom_yargs_completions mailroom');
  });
});

function execFileOk(file: string, args: string[]): Promise<void> {
  return new Promise((done, fail) => execFile(file, args, (err) => (err ? fail(err) : done())));
}
