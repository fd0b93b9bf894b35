/**
 * An installed lease hook carries the store resolved at install time (trial 2, item 1): installed
 * with `$MAILROOM_ROOT` set, the git pre-commit hook and the Claude Code hook still find the team
 * from a shell without it. A `--store` URL with a password is refused, never written in clear.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { BIN, runCli } from '../helpers/cli.js';
import { cleanEnv } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let dir: TempDir;
let root: string;
/** A shell with neither MAILROOM_ROOT nor MAILROOM_STORE, and a HOME with no ~/.mailroom. */
const bare = () => {
  const env = cleanEnv({ HOME: join(dir.path, 'home') });
  delete env.MAILROOM_STORE;
  return env;
};
beforeEach(async () => {
  dir = await makeTempDir();
  root = join(dir.path, 'store');
  await mkdir(join(dir.path, 'home'));
  execFileSync('git', ['init', '-q'], { cwd: dir.path });
  expect((await runCli(['--root', root, 'team', 'create', 'research'], cleanEnv())).code).toBe(0);
});
afterEach(async () => {
  await dir.cleanup();
});

/** `mailroom --team research <args>` in the repository with MAILROOM_ROOT exported (no --root). */
const withRootEnv = (...args: string[]) => spawnSync(process.execPath, [BIN, '--team', 'research', ...args], { cwd: dir.path, env: { ...bare(), MAILROOM_ROOT: root }, encoding: 'utf8' });

it('the pre-commit hook installed under $MAILROOM_ROOT finds the team from a shell without it', async () => {
  const installed = withRootEnv('lease', 'guard', '--install');
  expect(installed.status, installed.stderr).toBe(0);
  await writeFile(join(dir.path, 'a.txt'), 'a\n');
  execFileSync('git', ['add', 'a.txt'], { cwd: dir.path, env: bare() });
  const commit = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'a'], { cwd: dir.path, env: bare(), encoding: 'utf8' });
  expect(commit.stderr).not.toContain('TEAM_NOT_FOUND');
  expect(commit.status, commit.stderr).toBe(0);
  expect(commit.stderr + commit.stdout).toContain('free to commit');
}, 60_000);

it('the Claude Code hook installed under $MAILROOM_ROOT finds the team from a shell without it', async () => {
  const installed = withRootEnv('lease', 'hook', '--install');
  expect(installed.status, installed.stderr).toBe(0);
  const settings = JSON.parse(await readFile(join(dir.path, '.claude', 'settings.json'), 'utf8')) as { hooks: { PreToolUse: Array<{ hooks: Array<{ command: string }> }> } };
  const command = settings.hooks.PreToolUse[0]!.hooks[0]!.command;
  const input = JSON.stringify({ tool_name: 'Edit', tool_input: { file_path: join(dir.path, 'a.txt') }, cwd: dir.path });
  const ran = spawnSync('sh', ['-c', command], { cwd: dir.path, env: bare(), input, encoding: 'utf8' });
  expect(ran.stderr).not.toContain('TEAM_NOT_FOUND');
  expect(ran.status, ran.stderr).toBe(0);
}, 60_000);

it('refuses a --store URL with a password, writing no hook and printing no password', async () => {
  const r = withRootEnv('--store', 'redis://user:s3cret-pw@127.0.0.1:1/0', 'lease', 'guard', '--install');
  expect(r.status).toBe(2);
  expect(r.stderr).toContain('INVALID_ARGUMENT');
  expect(r.stderr).toContain('MAILROOM_STORE');
  expect(r.stderr).not.toContain('s3cret-pw');
  await expect(stat(join(dir.path, '.git', 'hooks', 'pre-commit'))).rejects.toThrow();
}, 60_000);
