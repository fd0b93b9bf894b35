/**
 * `lease guard --install` and `lease hook --install` through the real CLI: idempotent, a foreign
 * pre-commit hook and an unparsable Claude Code settings file are refused and left byte for byte.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { cleanEnv } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir();
  execFileSync('git', ['init', '-q'], { cwd: dir.path });
  expect((await runCli(['--root', join(dir.path, 'store'), 'team', 'create', 'demo'], cleanEnv())).code).toBe(0);
});
afterEach(async () => {
  await dir.cleanup();
});

const inRepo = async (...args: string[]) => {
  const { spawnSync } = await import('node:child_process');
  const { BIN } = await import('../helpers/cli.js');
  const r = spawnSync(process.execPath, [BIN, '--root', join(dir.path, 'store'), '--team', 'demo', ...args], { cwd: dir.path, env: cleanEnv(), encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

it('installs the pre-commit guard once, and refuses a hook it did not write', async () => {
  expect((await inRepo('lease', 'guard', '--install', '--as', 'bob')).stdout).toContain('installed');
  const hook = join(dir.path, '.git', 'hooks', 'pre-commit');
  expect(await readFile(hook, 'utf8')).toMatch(/--team demo lease guard --as bob\n$/);
  expect((await inRepo('lease', 'guard', '--install', '--as', 'bob')).stdout).toContain('unchanged');
  await writeFile(hook, '#!/bin/sh\nnpm test\n');
  const refused = await inRepo('lease', 'guard', '--install');
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain('did not write');
  expect(await readFile(hook, 'utf8')).toBe('#!/bin/sh\nnpm test\n');
}, 60_000);

it('adds the PreToolUse hook to .claude/settings.json once, keeping other settings; an unparsable file is left alone', async () => {
  const settings = join(dir.path, '.claude', 'settings.json');
  await mkdir(join(dir.path, '.claude'));
  await writeFile(settings, JSON.stringify({ model: 'opus', hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo hi' }] }] } }));
  expect((await inRepo('lease', 'hook', '--install', '--as', 'bob')).code).toBe(0);
  const once = await readFile(settings, 'utf8');
  const parsed = JSON.parse(once) as { model: string; hooks: { PreToolUse: Array<{ matcher: string; hooks: Array<{ command: string }> }> } };
  expect(parsed.model).toBe('opus');
  expect(parsed.hooks.PreToolUse.map((g) => g.matcher)).toEqual(['Bash', 'Edit|Write|MultiEdit|NotebookEdit']);
  expect(parsed.hooks.PreToolUse[1]!.hooks[0]!.command).toMatch(/lease hook --as bob$/);
  expect((await inRepo('lease', 'hook', '--install', '--as', 'bob')).stdout).toContain('unchanged');
  expect(await readFile(settings, 'utf8')).toBe(once);
  await writeFile(settings, '{ not json');
  const refused = await inRepo('lease', 'hook', '--install', '--as', 'bob');
  expect(refused.code).toBe(7);
  expect(refused.stderr).toContain('FILE_CORRUPT');
  expect(await readFile(settings, 'utf8')).toBe('{ not json');
}, 60_000);

it('an earlier install matching only Edit|Write|MultiEdit is updated in place to match NotebookEdit too', async () => {
  const settings = join(dir.path, '.claude', 'settings.json');
  await mkdir(join(dir.path, '.claude'));
  const first = await inRepo('lease', 'hook', '--install', '--as', 'bob');
  expect(first.code, first.stderr).toBe(0);
  const installed = JSON.parse(await readFile(settings, 'utf8')) as { hooks: { PreToolUse: Array<{ matcher: string; hooks: Array<{ command: string }> }> } };
  installed.hooks.PreToolUse[0]!.matcher = 'Edit|Write|MultiEdit'; // what mailroom wrote before session 20
  await writeFile(settings, JSON.stringify(installed));
  const again = await inRepo('lease', 'hook', '--install', '--as', 'bob');
  expect(again.stdout).toContain('updated');
  const parsed = JSON.parse(await readFile(settings, 'utf8')) as typeof installed;
  expect(parsed.hooks.PreToolUse.map((g) => g.matcher)).toEqual(['Edit|Write|MultiEdit|NotebookEdit']);
  expect(parsed.hooks.PreToolUse[0]!.hooks.map((h) => h.command)).toEqual(installed.hooks.PreToolUse[0]!.hooks.map((h) => h.command));
}, 60_000);
