/**
 * `lease hook` (Claude Code PreToolUse) on malformed input, through the real CLI: exit 2 blocks a
 * tool call in Claude Code, so it is kept for a held path; input that is not the hook's JSON is a
 * non-blocking exit 1 with INVALID_ARGUMENT on stderr, never a raw TypeError.
 */
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { cleanEnv, mailroomOk } from '../helpers/store-files.js';

let dir: TempDir;
let repo: string;
beforeEach(async () => {
  dir = await makeTempDir();
  repo = join(dir.path, 'repo');
  await mkdir(join(repo, 'src', 'store'), { recursive: true });
  await mailroomOk(dir.path, 'team', 'create', 'demo');
  for (const m of ['alice', 'bob']) await mailroomOk(dir.path, 'team', 'spawn', m, '--cwd', repo);
  await mailroomOk(dir.path, 'lease', 'acquire', 'src/**', '--as', 'alice');
});
afterEach(async () => {
  await dir.cleanup();
});

function hook(stdin: string, member = 'bob'): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, '--root', dir.path, '--team', 'demo', 'lease', 'hook', '--as', member], { env: cleanEnv(), stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code: code ?? -1, stderr }));
    child.stdin.end(stdin);
  });
}

it('malformed hook input is a non-blocking exit 1 with INVALID_ARGUMENT, never a TypeError', async () => {
  const edit = (toolInput: unknown, extra: object = {}) => JSON.stringify({ tool_name: 'Edit', cwd: repo, tool_input: toolInput, ...extra });
  const bad = ['not json', 'null', '[]', '"x"', '42', edit({ file_path: 123 }), edit({ file_path: [join(repo, 'src/a.ts')] }), edit({ file_path: 'src/a.ts' }, { cwd: 123 }), edit(null), JSON.stringify({ tool_name: 7 })];
  for (const input of bad) {
    const run = await hook(input);
    expect(run.code, input).toBe(1);
    expect(run.stderr, input).toMatch(/INVALID_ARGUMENT: lease hook/);
    expect(run.stderr, input).not.toMatch(/TypeError|INTERNAL/);
  }
  const held = await hook(edit({ file_path: join(repo, 'src', 'a.ts') }));
  expect(held.code).toBe(2);
  expect(held.stderr).toMatch(/alice holds an exclusive lease/);
  expect((await hook('')).code).toBe(0); // no input: nothing to check
});

it('NotebookEdit of a held path is blocked like Edit: Claude Code names the file notebook_path', async () => {
  const run = await hook(JSON.stringify({ tool_name: 'NotebookEdit', cwd: repo, tool_input: { notebook_path: join(repo, 'src', 'analysis.ipynb'), new_source: 'x' } }));
  expect(run.code, run.stderr).toBe(2);
  expect(run.stderr).toMatch(/src\/analysis\.ipynb: alice holds an exclusive lease/);
  const free = await hook(JSON.stringify({ tool_name: 'NotebookEdit', cwd: repo, tool_input: { notebook_path: join(repo, 'notes.ipynb') } }));
  expect(free.code, free.stderr).toBe(0);
});

it('a file at the repository root whose name starts with ".." is inside it: leased, and its edit blocked', async () => {
  // `..env` is a file in the repository, not its parent: only `..` and `../…` leave it.
  const acquired = await mailroomOk(dir.path, 'lease', 'acquire', join(repo, '..env'), '--as', 'alice', '--json');
  expect((JSON.parse(acquired.stdout) as { paths: string[] }).paths).toEqual(['..env']);
  const run = await hook(JSON.stringify({ tool_name: 'Write', cwd: repo, tool_input: { file_path: '..env' } }));
  expect(run.code, run.stderr).toBe(2);
  expect(run.stderr).toMatch(/\.\.env: alice holds an exclusive lease/);
  const outside = await hook(JSON.stringify({ tool_name: 'Write', cwd: repo, tool_input: { file_path: '../..env' } }));
  expect(outside.code, outside.stderr).toBe(0);
});
