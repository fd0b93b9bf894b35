/**
 * Path leases through the real CLI (docs/leases.md): acquire / list / release, LEASE_HELD (exit
 * 4) naming the holder; `lease guard` as a git pre-commit hook in a real repository (another
 * member's exclusive lease refuses the commit, one's own passes); and `lease hook` fed Claude
 * Code's PreToolUse input (Edit / Write): exit 2 with the holder on stderr, 0 otherwise.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { cleanEnv, mailroom, mailroomOk } from '../helpers/store-files.js';

let dir: TempDir;
let repo: string;
beforeEach(async () => {
  dir = await makeTempDir();
  repo = join(dir.path, 'repo');
  await mkdir(join(repo, 'src', 'store'), { recursive: true });
  await mailroomOk(dir.path, 'team', 'create', 'demo');
  for (const m of ['alice', 'bob']) await mailroomOk(dir.path, 'team', 'spawn', m, '--cwd', repo);
});
afterEach(async () => {
  await dir.cleanup();
});

it('acquire, LEASE_HELD naming the holder, list and release', async () => {
  const got = JSON.parse((await mailroomOk(dir.path, '--json', 'lease', 'acquire', 'src/store/**', '--as', 'alice', '--reason', 'store refactor')).stdout) as { id: string; repo: string };
  expect(got).toMatchObject({ id: 'pl-1', repo });
  const held = await mailroom(dir.path, 'lease', 'acquire', 'src/store/a.ts', '--as', 'bob');
  expect(held.code).toBe(4);
  expect(held.stderr).toMatch(/LEASE_HELD.*alice holds an exclusive lease pl-1 on src\/store\/\*\* \(store refactor\)/);
  expect((await mailroomOk(dir.path, 'lease', 'list')).stdout).toContain('alice');
  await mailroomOk(dir.path, 'lease', 'release', 'pl-1', '--as', 'alice');
  await mailroomOk(dir.path, 'lease', 'acquire', 'src/store/a.ts', '--as', 'bob');
  const log = (await mailroomOk(dir.path, 'log')).stdout;
  expect(log).toMatch(/alice leased src\/store\/\*\*/);
  expect(log).toMatch(/alice lease released src\/store\/\*\*/);
});

it('lease guard refuses a commit of files another member holds, and passes the holder\'s own', async () => {
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo, encoding: 'utf8' });
  git('init', '-q');
  await mailroomOk(dir.path, 'lease', 'acquire', 'src/store', '--as', 'alice');
  const hook = join(repo, '.git', 'hooks', 'pre-commit');
  await writeFile(hook, `#!/bin/sh\nexec "${process.execPath}" "${BIN}" --root "${dir.path}" --team demo lease guard\n`);
  await chmod(hook, 0o755);
  await writeFile(join(repo, 'src', 'store', 'a.ts'), 'export {};\n');
  git('add', '.');
  const commitAs = (member: string) => {
    try {
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', `by ${member}`], { cwd: repo, encoding: 'utf8', env: cleanEnv({ MAILROOM_MEMBER: member }), stdio: 'pipe' });
      return { code: 0, stderr: '' };
    } catch (err) {
      const e = err as { status: number; stderr: string };
      return { code: e.status, stderr: String(e.stderr) };
    }
  };
  const asBob = commitAs('bob');
  expect(asBob.code).not.toBe(0);
  expect(asBob.stderr).toMatch(/src\/store\/a\.ts: .*alice holds an exclusive lease/);
  expect(() => git('rev-parse', '--verify', '-q', 'HEAD')).toThrow(); // nothing was committed
  expect(commitAs('alice').code).toBe(0); // the holder's own lease passes
  expect(git('log', '--format=%s').trim()).toBe('by alice');
}, 60_000);

function hook(input: unknown, member: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, '--root', dir.path, '--team', 'demo', 'lease', 'hook', '--as', member], { env: cleanEnv(), stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code: code ?? -1, stderr }));
    child.stdin.end(JSON.stringify(input));
  });
}

it('lease hook blocks a Claude Code Edit/Write of a held path with exit 2 and the holder, and lets others through', async () => {
  await mailroomOk(dir.path, 'lease', 'acquire', 'src/store/**', '--as', 'alice', '--reason', 'refactor');
  // Claude Code's PreToolUse input: session_id, transcript_path, cwd, hook_event_name, tool_name, tool_input.
  const base = { session_id: 's', transcript_path: '/tmp/t.jsonl', cwd: repo, hook_event_name: 'PreToolUse' };
  const edit = await hook({ ...base, tool_name: 'Edit', tool_input: { file_path: join(repo, 'src/store/a.ts'), old_string: 'a', new_string: 'b' } }, 'bob');
  expect(edit.code).toBe(2);
  expect(edit.stderr).toMatch(/alice holds an exclusive lease pl-1 on src\/store\/\*\* \(refactor\)/);
  expect((await hook({ ...base, tool_name: 'Write', tool_input: { file_path: join(repo, 'src/store/a.ts'), content: 'x' } }, 'alice')).code).toBe(0);
  expect((await hook({ ...base, tool_name: 'Write', tool_input: { file_path: join(repo, 'README.md'), content: 'x' } }, 'bob')).code).toBe(0);
  expect((await hook({ ...base, tool_name: 'Read', tool_input: { file_path: join(repo, 'src/store/a.ts') } }, 'bob')).code).toBe(0);
});
