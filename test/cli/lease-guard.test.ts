/**
 * `lease guard` (git pre-commit) through the real CLI in a real repository: a rename out of a
 * leased path is refused (git's rename detection must not hide the old name), and the guard's
 * bad input (outside a repository, a non-member) is a clear error.
 */
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { cleanEnv, mailroomOk } from '../helpers/store-files.js';

let dir: TempDir;
let repo: string;
const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo, encoding: 'utf8', stdio: 'pipe' });
beforeEach(async () => {
  dir = await makeTempDir();
  repo = join(dir.path, 'repo');
  await mkdir(join(repo, 'src', 'store'), { recursive: true });
  await mailroomOk(dir.path, 'team', 'create', 'demo');
  for (const m of ['alice', 'bob']) await mailroomOk(dir.path, 'team', 'spawn', m, '--cwd', repo);
  git('init', '-q');
  await writeFile(join(repo, 'src', 'store', 'a.ts'), 'export const a = 1;\n');
  git('add', '.');
  git('commit', '-qm', 'first');
  const hook = join(repo, '.git', 'hooks', 'pre-commit');
  await writeFile(hook, `#!/bin/sh\nexec "${process.execPath}" "${BIN}" --root "${dir.path}" --team demo lease guard\n`);
  await chmod(hook, 0o755);
});
afterEach(async () => {
  await dir.cleanup();
});

function commitAs(member: string): { code: number; stderr: string } {
  try {
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', `by ${member}`], { cwd: repo, encoding: 'utf8', env: cleanEnv({ MAILROOM_MEMBER: member }), stdio: 'pipe' });
    return { code: 0, stderr: '' };
  } catch (err) {
    const e = err as { status: number; stderr: string };
    return { code: e.status, stderr: String(e.stderr) };
  }
}

it('refuses a rename out of a leased path (the old name is checked, not only the new one)', async () => {
  await mailroomOk(dir.path, 'lease', 'acquire', 'src/**', '--as', 'alice');
  await mkdir(join(repo, 'lib'));
  git('mv', 'src/store/a.ts', 'lib/a.ts');
  const asBob = commitAs('bob');
  expect(asBob.code).not.toBe(0);
  expect(asBob.stderr).toMatch(/src\/store\/a\.ts: .*alice holds an exclusive lease/);
  expect(git('log', '--format=%s').trim()).toBe('first'); // nothing was committed
  expect(commitAs('alice').code).toBe(0);
}, 60_000);

it('outside a git repository: USAGE naming the directory and how to run it, not INTERNAL', () => {
  const outside = join(dir.path, 'not-a-repo');
  execFileSync('mkdir', ['-p', outside]);
  let code = 0;
  let stderr = '';
  try {
    execFileSync(process.execPath, [BIN, '--root', dir.path, '--team', 'demo', 'lease', 'guard', '--as', 'bob'], { cwd: outside, encoding: 'utf8', env: cleanEnv({ GIT_CEILING_DIRECTORIES: dir.path }), stdio: 'pipe' });
  } catch (err) {
    const e = err as { status: number; stderr: string };
    code = e.status;
    stderr = String(e.stderr);
  }
  expect(code).toBe(2);
  expect(stderr).toMatch(/USAGE: lease guard works inside a git repository/);
  expect(stderr).toContain(outside);
  expect(stderr).not.toMatch(/INTERNAL/);
}, 60_000);
