/**
 * A directory where a state file should be, and a `.highwatermark` that holds no number: every
 * command that needs the file fails with FILE_CORRUPT naming it (exit 7, one line, never INTERNAL
 * "EISDIR"), nothing is overwritten, and `mailroom doctor` finds it and `--fix` moves it aside, as
 * the FILE_CORRUPT message promises.
 */
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliRun } from '../helpers/cli.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { mailroom, mailroomOk, snapshotBytes } from '../helpers/store-files.js';

let dir: TempDir;
let root: string;

beforeEach(async () => {
  dir = await makeTempDir();
  root = dir.path;
  await mailroomOk(root, 'team', 'create', 'demo');
  await mailroomOk(root, 'team', 'spawn', 'alice');
  await mailroomOk(root, 'task', 'add', 'first');
});
afterEach(() => dir.cleanup());

function expectCorrupt(run: CliRun, file: string): void {
  expect(run.code, run.stderr).toBe(7);
  expect(run.stderr).toContain('FILE_CORRUPT');
  expect(run.stderr).toContain(join(root, file));
  expect(run.stderr).not.toContain('INTERNAL');
  expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
}

describe('a directory in place of a state file', () => {
  it.each([
    { file: 'teams/demo/inboxes/alice.json', args: ['team', 'send', 'alice', 'hi'] },
    { file: 'teams/demo/inboxes/alice.json', args: ['inbox', 'alice'] },
    { file: 'tasks/demo/2.json', args: ['task', 'show', '2'] },
    { file: 'tasks/demo/2.json', args: ['task', 'update', '2', '--subject', 'x'] },
    { file: 'tasks/demo/.highwatermark', args: ['task', 'add', 'second'] },
  ])('$file, $args.0 $args.1: FILE_CORRUPT naming it, nothing written', async ({ file, args }) => {
    await mkdir(join(root, file), { recursive: true });
    const before = await snapshotBytes(root);
    expectCorrupt(await mailroom(root, ...args), file);
    expect(await snapshotBytes(root)).toEqual(before);
    expect((await stat(join(root, file))).isDirectory()).toBe(true);
  });

  it('task list skips a task directory with a warning; doctor reports it and --fix moves it aside', async () => {
    await mkdir(join(root, 'tasks/demo/2.json'));
    const list = await mailroom(root, 'task', 'list');
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('first');
    const doctor = await mailroom(root, 'doctor');
    expect(doctor.code, doctor.stderr).toBe(7);
    expect(doctor.stdout).toContain(join(root, 'tasks/demo/2.json'));
    expect((await mailroom(root, 'doctor', '--fix')).code).toBe(0);
    await expect(stat(join(root, 'tasks/demo/2.json'))).rejects.toThrow(/ENOENT/);
    expect((await mailroom(root, 'task', 'show', '2')).code).toBe(3);
  });
});

describe('a .highwatermark that holds no number', () => {
  it('task add fails naming it; doctor reports it; --fix moves it aside and adds work again', async () => {
    const mark = join(root, 'tasks/demo/.highwatermark');
    await writeFile(mark, 'garbage');
    expectCorrupt(await mailroom(root, 'task', 'add', 'second'), 'tasks/demo/.highwatermark');
    expect(await readFile(mark, 'utf8')).toBe('garbage');
    const doctor = await mailroom(root, 'doctor');
    expect(doctor.code, doctor.stdout).toBe(7);
    expect(doctor.stdout).toContain(mark);
    const fix = await mailroom(root, 'doctor', '--fix');
    expect(fix.code, fix.stdout + fix.stderr).toBe(0);
    await expect(stat(mark)).rejects.toThrow(/ENOENT/);
    const add = await mailroomOk(root, 'task', 'add', 'second', '--json');
    expect((JSON.parse(add.stdout) as { id: string }).id).toBe('2');
  });
});
