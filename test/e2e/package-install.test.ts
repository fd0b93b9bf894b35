/**
 * The package installs by name and runs as users get it: `npm pack` of this checkout (as built by
 * `npm test`), installed with `npm install -g` into an empty prefix — runtime dependencies only,
 * no build step — and the installed `mailroom` run from another directory against a temp --root.
 * Needs npm and the npm registry (the dependencies are installed as a user's npm would).
 */
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliRun } from '../helpers/cli.js';
import { cleanEnv } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const INSTALL_MS = 240_000;

let tmp: TempDir;
let prefix: string;
let root: string;
let elsewhere: string;
let cache: string;
let installOutput: string;

function run(command: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: options.cwd, env: options.env ?? cleanEnv(), maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

/** The installed `mailroom`, run from a directory that is neither the repo nor the prefix. */
function installed(...args: string[]): Promise<CliRun> {
  const env = cleanEnv({ PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}`, MAILROOM_COMPILE_CACHE: cache });
  return run(join(prefix, 'bin', 'mailroom'), ['--root', root, ...args], { cwd: elsewhere, env });
}

beforeAll(async () => {
  tmp = await makeTempDir('mailroom-package-');
  prefix = join(tmp.path, 'prefix');
  root = join(tmp.path, 'store');
  elsewhere = join(tmp.path, 'elsewhere');
  cache = join(tmp.path, 'compile-cache');
  for (const dir of [prefix, elsewhere]) await mkdir(dir);
  // --ignore-scripts: pack what `npm test` built (prepare would rebuild dist/ under running tests).
  const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp.path], { cwd: REPO });
  if (pack.code !== 0) throw new Error(`npm pack failed (is npm on PATH?): ${pack.stderr}`);
  const [{ filename }] = JSON.parse(pack.stdout) as [{ filename: string }];
  const install = await run('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', '--prefer-offline', join(tmp.path, filename)], { cwd: elsewhere });
  if (install.code !== 0) throw new Error(`npm install -g of the packed tarball failed (the npm registry must be reachable for its dependencies): ${install.stderr}`);
  installOutput = install.stdout + install.stderr;
}, INSTALL_MS);
afterAll(() => tmp?.cleanup());

describe('npm pack → npm install -g --prefix <empty dir> → mailroom', () => {
  it('installs the package by its name, agent-mailroom, with only runtime dependencies', async () => {
    const modules = join(prefix, 'lib', 'node_modules');
    expect(await readdir(modules)).toEqual(['agent-mailroom']);
    const pkg = JSON.parse(await readFile(join(modules, 'agent-mailroom', 'package.json'), 'utf8')) as { name: string; bin: Record<string, string> };
    expect(pkg).toMatchObject({ name: 'agent-mailroom', bin: { mailroom: 'bin/mailroom.js' } });
    const installedDeps = await readdir(join(modules, 'agent-mailroom', 'node_modules'));
    for (const dev of ['typescript', 'vitest', 'esbuild', 'fast-check', 'ink-testing-library', '@types']) expect(installedDeps).not.toContain(dev);
    expect(await readdir(join(modules, 'agent-mailroom'))).not.toContain('src');
  });

  it('runs team create, team send and inbox from another directory', async () => {
    const created = await installed('team', 'create', 'demo');
    expect(created.stdout + created.stderr).toBe('Created team demo (lead: team-lead)\n');
    expect((await installed('team', 'spawn', 'alice')).code).toBe(0);
    const sent = await installed('team', 'send', 'team-lead', 'hello from an installed mailroom', '--as', 'alice');
    expect(sent.code, sent.stderr).toBe(0);
    const inbox = await installed('inbox', '--json');
    expect(inbox.code, inbox.stderr).toBe(0);
    expect((JSON.parse(inbox.stdout) as { messages: { entry: { from: string; text: string } }[] }).messages.map((m) => m.entry)).toEqual([
      expect.objectContaining({ from: 'alice', text: 'hello from an installed mailroom' }),
    ]);
    const version = await installed('--version');
    expect(version.stdout).toBe(`${(JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')) as { version: string }).version}\n`);
  });

  it('keeps a compile cache for the installed CLI: one entry per bundle run (the full CLI, team send\'s, inbox\'s)', async () => {
    expect((await readdir(cache)).filter((f) => f.endsWith('.v8'))).toHaveLength(3);
  });

  it('installs without an install-script warning, and ships the LICENSE and the demo team file', async () => {
    expect(installOutput).not.toMatch(/prepare|install script|allowScripts/i);
    const pkg = join(prefix, 'lib', 'node_modules', 'agent-mailroom');
    expect(await readFile(join(pkg, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} mailroom contributors\n/);
    expect((await readdir(join(pkg, 'fixtures', 'demo'))).sort()).toEqual(['sales.csv', 'team.yaml']);
    const manifest = JSON.parse(await readFile(join(pkg, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    expect(Object.keys(manifest.scripts ?? {})).not.toContain('prepare');
  });

  it("runs the README's demo from the install: mailroom run --example, then task list", async () => {
    const demoRoot = join(tmp.path, 'demo');
    const env = cleanEnv({ MAILROOM_COMPILE_CACHE: cache });
    const demo = await run(join(prefix, 'bin', 'mailroom'), ['run', '--example', '--root', demoRoot, '--workdir', join(demoRoot, 'work')], { cwd: elsewhere, env });
    expect(demo.code, demo.stderr).toBe(0);
    expect(demo.stdout).toContain('6/6 tasks completed');
    const tasks = await run(join(prefix, 'bin', 'mailroom'), ['task', 'list', '--root', demoRoot, '--team', 'demo', '--json'], { cwd: elsewhere, env });
    expect((JSON.parse(tasks.stdout) as Array<{ task: { status: string } }>).map((t) => t.task.status)).toEqual(Array(6).fill('completed'));
    const completion = await run(join(prefix, 'bin', 'mailroom'), ['completion'], { cwd: elsewhere, env });
    expect(completion.code, completion.stderr).toBe(0);
    expect(completion.stdout).toContain('mailroom');
  }, 120_000);

  it('runs README\'s "A team from the shell" block, line by line as written, with the installed mailroom on PATH', async () => {
    const readme = await readFile(join(REPO, 'README.md'), 'utf8');
    const block = /## A team from the shell\n+```sh\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block, 'README has a "## A team from the shell" sh block').toBeDefined();
    const shellRoot = join(tmp.path, 'readme-root');
    // The block's own root (/tmp/mr) becomes a temp dir; everything else runs as printed.
    const script = `set -e\n${(block as string).replaceAll('/tmp/mr', shellRoot)}`;
    const env = cleanEnv({ PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}`, HOME: join(tmp.path, 'home'), MAILROOM_COMPILE_CACHE: cache });
    const shell = await run('sh', ['-c', script], { cwd: elsewhere, env });
    expect(shell.code, shell.stderr).toBe(0);
    expect(shell.stdout).toContain('Start with the 2024 survey'); // the closing `cat` of alice's inbox file
  }, 120_000);
});
