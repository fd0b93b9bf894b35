/**
 * A named pipe (FIFO) or a device where a JSON state file belongs — made by hand, or a symlink to
 * /dev/zero: reading it never ended, so `mailroom doctor` hung on a FIFO among the command records
 * and `mailroom agent` hung at start (its SIGTERM handler could not run: the read blocked). Such a
 * file is FILE_CORRUPT ("is not a regular file"), doctor reports it and `--fix` moves it aside.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdir, readdir, rm, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { BIN, type CliRun } from '../helpers/cli.js';
import { cleanEnv, mailroomOk } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let dir: TempDir;
let root: string;
beforeEach(async () => {
  dir = await makeTempDir();
  root = dir.path;
  await mailroomOk(root, 'team', 'create', 'demo');
  await mailroomOk(root, 'team', 'spawn', 'alice');
});
afterEach(() => dir.cleanup());

/** `mailroom --root <root> <args>`, SIGKILLed after 20 s so that a hang fails the test and leaves nothing behind. */
function cli(...args: string[]): Promise<CliRun & { killed: boolean }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, '--root', root, ...args], { env: cleanEnv(), timeout: 20_000, killSignal: 'SIGKILL' }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr, killed: err?.killed === true });
    });
  });
}

it('a FIFO among the command records: doctor reports it and --fix moves it aside; agent start does not hang', async () => {
  const records = join(root, 'mailroom', 'commands', 'demo');
  await mkdir(records, { recursive: true });
  execFileSync('mkfifo', [join(records, '5.json')]);

  const check = await cli('doctor', '--json');
  expect(check.killed).toBe(false); // was: hung
  expect(check.code).toBe(7);
  const report = JSON.parse(check.stdout) as { findings: Array<{ kind: string; path: string; message: string }> };
  expect(report.findings).toEqual([expect.objectContaining({ kind: 'corrupt-file', path: join(records, '5.json') })]);
  expect(report.findings[0]!.message).toContain('is not a regular file');
  const fix = await cli('doctor', '--fix');
  expect(fix.code, fix.stdout + fix.stderr).toBe(0);
  expect((await readdir(records)).filter((n) => n === '5.json')).toEqual([]);

  execFileSync('mkfifo', [join(records, '6.json')]);
  const agent = await cli('agent', 'alice', '--model', 'nope:x'); // starts, reaps, then refuses the model
  expect(agent.killed).toBe(false); // was: hung while listing the records
  expect(agent.stderr).toContain('INVALID_ARGUMENT');
});

it.each([
  { file: 'teams/demo/config.json', args: ['team', 'show', 'demo'] },
  { file: 'teams/demo/inboxes/alice.json', args: ['inbox', 'alice'] },
  { file: 'tasks/demo/1.json', args: ['task', 'show', '1'] },
])('$file as a symlink to /dev/zero or a FIFO: FILE_CORRUPT, no hang', async ({ file, args }) => {
  await mailroomOk(root, 'task', 'add', 'first');
  const path = join(root, file);
  await mkdir(dirname(path), { recursive: true });
  for (const make of [() => symlink('/dev/zero', path), async () => execFileSync('mkfifo', [path])]) {
    await rm(path, { force: true });
    await make();
    const run = await cli(...args);
    expect(run.killed).toBe(false);
    expect(run.code, run.stderr).toBe(7);
    expect(run.stderr).toContain(`FILE_CORRUPT: ${path} is not a regular file`);
  }
});
