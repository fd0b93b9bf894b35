/**
 * Files mailroom may not or should not write: a read-only state file (no owner write bit) is never
 * replaced (mailroom writes by rename, which the mode does not stop; Claude Code's in-place writes
 * fail on it); a directory the user cannot write gives FILE_ACCESS naming the path and the fix
 * (exit 7), not INTERNAL "EACCES"; a symlinked inbox stays a symlink and its target gets the message.
 */
import { execFile } from 'node:child_process';
import { chmod, lstat, mkdir, readFile, readdir, rename, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, type CliRun } from '../helpers/cli.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { cleanEnv, mailroom, mailroomOk, readJson, snapshotBytes } from '../helpers/store-files.js';

let dir: TempDir;
let root: string;

beforeEach(async () => {
  dir = await makeTempDir();
  root = join(dir.path, 'root');
  await mailroomOk(root, 'team', 'create', 'demo');
  await mailroomOk(root, 'team', 'spawn', 'alice');
  await mailroomOk(root, 'team', 'send', 'alice', 'first');
  await mailroomOk(root, 'task', 'add', 'first');
});
afterEach(() => dir.cleanup());

function expectAccessError(run: CliRun, path: string): void {
  expect(run.code, run.stderr).toBe(7);
  expect(run.stderr).toContain('FILE_ACCESS');
  expect(run.stderr).toContain(path);
  expect(run.stderr).not.toContain('INTERNAL');
}

describe('a read-only state file is never replaced', () => {
  it.each([
    { file: 'teams/demo/inboxes/alice.json', args: ['team', 'send', 'alice', 'hi'] },
    { file: 'tasks/demo/1.json', args: ['task', 'update', '1', '--subject', 'changed'] },
    { file: 'teams/demo/config.json', args: ['team', 'spawn', 'bob'] },
  ])('$file (0444): $args.0 $args.1 exits 7 with FILE_ACCESS, nothing changes', async ({ file, args }) => {
    await chmod(join(root, file), 0o444);
    const before = await snapshotBytes(root);
    expectAccessError(await mailroom(root, ...args), join(root, file));
    expect(await snapshotBytes(root)).toEqual(before);
    expect((await lstat(join(root, file))).mode & 0o777).toBe(0o444);
  });
});

describe('a directory this user cannot write', () => {
  /**
   * Runs the CLI bound by file modes. Root ignores them (CAP_DAC_OVERRIDE), so as root the CLI runs
   * with no capability at all (setpriv): still uid 0, the owner of every file here, but held to the
   * owner bits. (Running it as `nobody` needs the repository and the node binary to be readable by
   * nobody, which a clone or a node under /root is not.)
   */
  function asUser(...args: string[]): Promise<CliRun> {
    const argv = [BIN, '--root', root, ...args];
    const noCaps = ['--inh-caps=-all', '--bounding-set=-all', '--', process.execPath, ...argv];
    const [cmd, full] = process.getuid?.() === 0 ? ['setpriv', noCaps] : [process.execPath, argv];
    return new Promise((resolve) => {
      execFile(cmd as string, full as string[], { env: cleanEnv() }, (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }));
    });
  }

  it('task add in a read-only task list: FILE_ACCESS naming the path and chmod, exit 7', async () => {
    await chmod(join(root, 'tasks/demo'), 0o500);
    const run = await asUser('task', 'add', 'second');
    expectAccessError(run, join(root, 'tasks/demo'));
    expect(run.stderr).toMatch(/chmod|permission/i);
    await chmod(join(root, 'tasks/demo'), 0o700);
  });
});

describe('a symlinked inbox', () => {
  it('stays a symlink; the message lands in the file it points to', async () => {
    const inbox = join(root, 'teams/demo/inboxes/alice.json');
    await mkdir(join(dir.path, 'elsewhere'));
    const target = join(dir.path, 'elsewhere/alice.json');
    await rename(inbox, target);
    await symlink(target, inbox);
    await mailroomOk(root, 'team', 'send', 'alice', 'through the link');
    expect((await lstat(inbox)).isSymbolicLink()).toBe(true);
    expect((await readJson<{ text: string }[]>(target)).map((e) => e.text)).toEqual(['first', 'through the link']);
    expect(await readdir(join(root, 'teams/demo/inboxes'))).toEqual(['alice.json']);
    expect(JSON.parse(await readFile(target, 'utf8'))).toHaveLength(2);
  });
});

describe('a store root that is a file', () => {
  it.each([['team', 'list'], ['team', 'create', 'x']])('mailroom --root <file> %s %s: FILE_ACCESS naming the path, exit 7', async (...args) => {
    const file = join(dir.path, 'not-a-dir');
    await (await import('node:fs/promises')).writeFile(file, 'x');
    const run = await mailroom(file, ...args);
    expectAccessError(run, file);
    expect(run.stderr).toContain('not a directory');
    expect(run.stderr).toContain('--root');
  });
});
