/**
 * Path leases through symbolic links, with the real CLI: a path reached through a link to a leased
 * directory (`ln -s src srclink`) is the same file for acquire and the PreToolUse hook, and a
 * repository reached through a linked path (`ln -s repo link`; macOS's /tmp is one) is inside it.
 */
import { spawn } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
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
  await writeFile(join(repo, 'src', 'store', 'a.ts'), 'export {};\n');
  await symlink('src', join(repo, 'srclink'));
  await symlink('repo', join(dir.path, 'link'));
  await mailroomOk(dir.path, 'team', 'create', 'demo');
  for (const m of ['alice', 'bob']) await mailroomOk(dir.path, 'team', 'spawn', m, '--cwd', repo);
  await mailroomOk(dir.path, 'lease', 'acquire', 'src/**', '--as', 'alice');
});
afterEach(async () => {
  await dir.cleanup();
});

function hook(input: unknown, member: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, '--root', dir.path, '--team', 'demo', 'lease', 'hook', '--as', member], { env: cleanEnv(), stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code: code ?? -1, stderr }));
    child.stdin.end(JSON.stringify(input));
  });
}

it('acquire through a link to a leased directory is LEASE_HELD (files and globs, existing or not)', async () => {
  for (const path of ['srclink/store/a.ts', 'srclink/store/new.ts', 'srclink/**', join(dir.path, 'link', 'src', 'store', 'a.ts')]) {
    const run = await mailroom(dir.path, 'lease', 'acquire', path, '--as', 'bob');
    expect(run.code, path).toBe(4);
    expect(run.stderr).toMatch(/alice holds an exclusive lease pl-1 on src\/\*\*/);
  }
  expect((await mailroomOk(dir.path, '--json', 'lease', 'list')).stdout).not.toContain('bob');
});

it('a lease acquired through a linked repository path is stored under the real path', async () => {
  const run = JSON.parse((await mailroomOk(dir.path, '--json', 'lease', 'acquire', 'docs/**', '--as', 'bob', '--repo', join(dir.path, 'link'))).stdout) as { repo: string; paths: string[] };
  expect(run.paths).toEqual(['docs/**']);
  const edit = await hook({ tool_name: 'Write', cwd: repo, tool_input: { file_path: join(repo, 'docs', 'x.md'), content: 'x' } }, 'alice');
  expect(edit.code).toBe(2);
});

it('the PreToolUse hook blocks an edit through a link to a leased directory, and through a linked repository path', async () => {
  const base = { session_id: 's', transcript_path: '/tmp/t.jsonl', hook_event_name: 'PreToolUse', tool_name: 'Edit' };
  const viaSrcLink = await hook({ ...base, cwd: repo, tool_input: { file_path: join(repo, 'srclink', 'store', 'a.ts') } }, 'bob');
  expect(viaSrcLink.code).toBe(2);
  expect(viaSrcLink.stderr).toMatch(/alice holds an exclusive lease pl-1/);
  const viaRepoLink = await hook({ ...base, cwd: dir.path, tool_input: { file_path: 'link/src/store/a.ts' } }, 'bob');
  expect(viaRepoLink.code).toBe(2);
  const newFile = await hook({ ...base, tool_name: 'Write', cwd: join(dir.path, 'link'), tool_input: { file_path: join(dir.path, 'link', 'srclink', 'new', 'b.ts') } }, 'bob');
  expect(newFile.code).toBe(2);
  expect((await hook({ ...base, cwd: dir.path, tool_input: { file_path: 'link/README.md' } }, 'bob')).code).toBe(0);
});

it('a path leased before a link on it existed still blocks an edit by that path once the link appears', async () => {
  // alice leases gen/x.ts while gen/ does not exist; then gen -> src appears (a generated link).
  await mailroomOk(dir.path, 'lease', 'acquire', 'gen/x.ts', '--as', 'bob');
  await symlink('src', join(repo, 'gen'));
  const edit = await hook({ tool_name: 'Edit', cwd: repo, tool_input: { file_path: 'gen/x.ts' } }, 'alice');
  expect(edit.code, edit.stderr).toBe(2);
  expect(edit.stderr).toMatch(/bob holds an exclusive lease pl-2 on gen\/x\.ts/);
});
