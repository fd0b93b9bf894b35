/**
 * A TAB press offers the store's names (issue 23 item 7): teams after `--team` and in `watch`,
 * `team show`; members after `--as` and in `team send <to>`, `inbox`; in the store the typed line
 * selects (`--root`), through the real CLI as the shell script calls it (`mailroom` first).
 */
import { execFile } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASH_COMPLETION_SCRIPT } from '../../src/cli/bash-completion.js';
import { nameKind } from '../../src/cli/completion-names.js';
import { BIN, runCli } from '../helpers/cli.js';
import { runCliBatch } from '../helpers/cli-batch.js';
import { startRedis } from '../helpers/redis-server.js';
import { cleanEnv } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

const require = createRequire(import.meta.url);
let tmp: TempDir;

/** Runs `script` in a real `bash -c` (bash is on every machine the suite runs on: .ci/run's Debian). */
function execBash(script: string, environment: NodeJS.ProcessEnv): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile('bash', ['-c', script], { env: environment }, (err, stdout, stderr) => (err ? reject(Object.assign(err, { stderr })) : resolve({ stdout, stderr })));
  });
}
const env = () => cleanEnv({ HOME: `${tmp.path}/home` });

/** What the shell would offer for the line's last word. */
async function tab(...words: string[]): Promise<string[]> {
  const run = await runCli(['--get-yargs-completions', 'mailroom', ...words], env());
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
  return run.stdout.split('\n').filter(Boolean);
}

beforeAll(async () => {
  tmp = await makeTempDir('mailroom completion ');
  for (const args of [['team', 'create', 'demo'], ['team', 'create', 'other'], ['--team', 'demo', 'team', 'spawn', 'alice'], ['--team', 'demo', 'team', 'spawn', 'alfred']]) {
    const run = await runCli(['--root', tmp.path, ...args], env());
    expect(run.code).toBe(0);
  }
});
afterAll(() => tmp.cleanup());

describe('completion of names', () => {
  it('offers the teams after --team (names only) and in watch / team show (before the options)', async () => {
    expect(await tab('--root', tmp.path, '--team', '')).toEqual(['demo', 'other']);
    expect(await tab('--root', tmp.path, '--team', 'd')).toEqual(['demo']);
    const watch = await tab('--root', tmp.path, 'watch', '');
    expect(watch.slice(0, 2)).toEqual(['demo', 'other']);
    expect(watch).toContain('--json');
    expect((await tab('--root', tmp.path, 'team', 'show', 'o')).slice(0, 1)).toEqual(['other']);
  });

  it("offers the team's members for team send <to>, inbox and --as", async () => {
    expect(await tab('--root', tmp.path, '--team', 'demo', 'team', 'send', 'al')).toEqual(['alfred', 'alice']);
    expect((await tab('--root', tmp.path, '--team', 'demo', 'inbox', '')).slice(0, 3)).toEqual(['alfred', 'alice', 'team-lead']);
    expect(await tab('--root', tmp.path, '--team', 'demo', 'inbox', '--as', 'team')).toEqual(['team-lead']);
  });

  it('offers no names for a message text, and none (no error) where the team cannot be chosen', async () => {
    expect(await tab('--root', tmp.path, '--team', 'demo', 'team', 'send', 'alice', 'al')).toEqual([]);
    // two teams and no --team: which members? none offered, nothing printed on the terminal
    expect(await tab('--root', tmp.path, 'team', 'send', 'al')).toEqual([]);
    expect(await tab('--root', `${tmp.path}/nothing-here`, '--team', '')).toEqual([]);
  });

  it('offers the statuses after task list/update --status, without the commands (new-user trial)', async () => {
    expect(await tab('--root', tmp.path, '--team', 'demo', 'task', 'list', '--status', '')).toEqual(['pending', 'in_progress', 'completed']);
    expect(await tab('--root', tmp.path, 'task', 'list', '--status', 'in')).toEqual(['in_progress']);
    expect(await tab('--root', tmp.path, '--team', 'demo', 'task', 'update', '1', '--status', '')).toEqual(['pending', 'in_progress', 'completed', 'deleted']);
    // inbox --status is a flag: the word after it is the member
    expect((await tab('--root', tmp.path, '--team', 'demo', 'inbox', '--status', 'ali'))[0]).toBe('alice');
  });

  it("offers the team's task ids after task show/update/delete, and the open ones after task claim (new-user trial)", async () => {
    const on = ['--root', tmp.path, '--team', 'demo'];
    // The eleven set-up commands in one process (the test's own process starts are its TAB presses).
    const adds = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'].map((subject) => [...on, 'task', 'add', subject]);
    const setUp = await runCliBatch([...adds, [...on, 'task', 'update', '2', '--status', 'completed']]);
    expect(setUp.map((run) => run.code)).toEqual(setUp.map(() => 0));
    const show = await tab(...on, 'task', 'show', '');
    expect(show.slice(0, 10)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
    expect(show).toContain('--json');
    expect((await tab(...on, 'task', 'claim', '')).slice(0, 9)).toEqual(['1', '3', '4', '5', '6', '7', '8', '9', '10']);
    expect((await tab(...on, 'task', 'update', '1')).slice(0, 2)).toEqual(['1', '10']);
    expect((await tab(...on, 'task', 'delete', '')).slice(0, 1)).toEqual(['1']);
    // the id is the first positional only, and a team that cannot be chosen offers none
    expect(await tab(...on, 'task', 'show', '1', '')).not.toContain('1');
    expect((await tab('--root', tmp.path, 'task', 'show', '')).filter((w) => /^\d+$/.test(w))).toEqual([]);
  });

  it('still offers the commands', async () => {
    expect(await tab('--root', tmp.path, 'team', '')).toEqual(expect.arrayContaining(['create', 'send', 'show']));
  });
});

describe('completion of a line bash split at = and :', () => {
  // bash's COMP_WORDS breaks words at COMP_WORDBREAKS (= and : by default), and the script passes
  // them as they are: `--root=/x` arrives as `--root`, `=`, `/x`, and `redis://h:1` as `redis`, `:`, `//h`, `:`, `1`.
  it('reads --root=dir and --team=name typed with = and completes the value after --team= (bash: the part after =)', async () => {
    expect((await tab('--root', '=', tmp.path, 'watch', '')).slice(0, 2)).toEqual(['demo', 'other']);
    expect(await tab('--root', '=', tmp.path, '--team', '=', 'demo', 'team', 'send', 'al')).toEqual(['alfred', 'alice']);
    expect(await tab('--root', '=', tmp.path, '--team', '=', 'd')).toEqual(['demo']);
    expect(await tab('--root', '=', tmp.path, '--team=demo', '--as', '=', 'al')).toEqual(['alfred', 'alice']);
  });

  it('completes --team=<prefix> typed as one word (zsh) with the whole word', async () => {
    expect(await tab('--root', tmp.path, '--team=d')).toEqual(['--team=demo']);
    expect(await tab('--root', tmp.path, '--team=demo', '--as=al')).toEqual(['--as=alfred', '--as=alice']);
  });
});

describe('completion in a real bash', () => {
  // The script `mailroom completion bash` prints, sourced in bash and called as bash calls it on a
  // TAB press: COMP_WORDS as bash splits the line (at = and :), COMP_CWORD the word under the cursor.
  async function bashTab(words: readonly string[]): Promise<string[]> {
    const bin = `${tmp.path}/bin`;
    await mkdir(bin, { recursive: true });
    await symlink(BIN, `${bin}/mailroom`).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err;
    });
    const quoted = words.map((w) => `'${w.replaceAll("'", "'\\''")}'`).join(' ');
    const script = `source <(mailroom completion bash) && COMP_WORDS=(mailroom ${quoted}) && COMP_CWORD=${words.length} && _mailroom_yargs_completions && printf '%s\\n' "\${COMPREPLY[@]}"`;
    const run = await execBash(script, { ...env(), PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin` });
    expect(run.stderr).toBe('');
    return run.stdout.split('\n').filter(Boolean);
  }

  it("is yargs' own bash script with the one line added (a yargs upgrade that changes it fails here)", async () => {
    // yargs does not export its templates (package "exports"): load the installed file by its path.
    const file = join(dirname(require.resolve('yargs/package.json')), 'build/lib/completion-templates.js');
    const { completionShTemplate } = (await import(pathToFileURL(file).href)) as { completionShTemplate: string };
    const yargsScript = completionShTemplate.replaceAll('{{app_name}}', 'mailroom').replaceAll('{{app_path}}', 'mailroom').replaceAll('{{completion_command}}', 'completion');
    const code = (script: string) => script.split('\n').filter((line) => !line.startsWith('#'));
    const added = '    [[ $cur_word == "=" ]] && cur_word=""';
    expect(BASH_COMPLETION_SCRIPT.split('\n')).toContain(added);
    expect(code(BASH_COMPLETION_SCRIPT).filter((line) => line !== added)).toEqual(code(yargsScript));
  });

  it('offers the teams after --team= (bash hands the script "=" as the word under the cursor)', async () => {
    expect(await bashTab(['--root', tmp.path, '--team', '='])).toEqual(['demo', 'other']);
    expect(await bashTab(['--root', tmp.path, '--team', '=', 'd'])).toEqual(['demo']);
    expect(await bashTab(['--root', tmp.path, '--team', ''])).toEqual(['demo', 'other']);
    expect(await bashTab(['--root', tmp.path, '--team=demo', '--as', '=', 'al'])).toEqual(['alfred', 'alice']);
  });
});

describe('completion on a Redis store', () => {
  it('offers the members without printing the volatile-store warning into the typed line, and nothing once the server is stopped', async () => {
    const redis = await startRedis(); // no persistence: a command would warn about it on stderr
    try {
      const on = ['--store', redis.url, '--root', tmp.path];
      expect((await runCli([...on, 'team', 'create', 'rt', '--allow-volatile'], env())).code).toBe(0);
      expect((await runCli([...on, '--team', 'rt', 'team', 'spawn', 'zed', '--allow-volatile'], env())).code).toBe(0);
      expect(await tab(...on, '--team', 'rt', 'team', 'send', 'z')).toEqual(['zed']);
      // the URL as bash passes it, split at each ':'
      const [scheme, ...rest] = redis.url.split(':');
      const split = [scheme as string, ...rest.flatMap((part) => [':', part])];
      expect(await tab('--store', ...split, '--root', tmp.path, '--team', 'rt', 'team', 'send', 'z')).toEqual(['zed']);
      await redis.kill();
      expect(await tab(...on, '--team', 'rt', 'team', 'send', 'z')).toEqual([]);
    } finally {
      await redis.stop();
    }
  });
});

describe('nameKind', () => {
  it.each([
    [['--team', ''], 'team'],
    [['watch', ''], 'team'],
    [['--root', '/x', 'log', 'd'], 'team'],
    [['team', 'send', ''], 'member'],
    [['--team', 'demo', 'team', 'ask', 'b'], 'member'],
    [['inbox', '--as', ''], 'member'],
    [['team', 'send', 'bob', ''], undefined],
    [['team', ''], undefined],
    [['team', 'send', '--'], undefined],
  ] as const)('%j → %s', (words, kind) => {
    expect(nameKind(words)).toBe(kind);
  });
});
