/**
 * A store root whose path begins with `-` can only be given as `--root=-x` (`--root -x` reads `-x`
 * as options). The error hint carried it as `--root -x`, so the pasted command failed with USAGE
 * instead of acting on that root.
 */
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { cleanEnv } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

const run = promisify(execFile);
let tmp: TempDir;
beforeEach(async () => {
  tmp = await makeTempDir();
  await mkdir(join(tmp.path, 'home'));
});
afterEach(() => tmp.cleanup());

/** Runs a shell command line in the temp dir (HOME inside it too); never throws. */
async function sh(line: string): Promise<{ code: number; stderr: string }> {
  const env = cleanEnv({ HOME: join(tmp.path, 'home') });
  return run('sh', ['-c', line], { cwd: tmp.path, env }).then(
    (r) => ({ code: 0, stderr: r.stderr }),
    (err: { code: number; stderr: string }) => ({ code: err.code, stderr: err.stderr }),
  );
}

it.each(['--root=-r', '--root=-my root'])('the hint after %s is a command that works on that root', async (option) => {
  const failed = await sh(`"${process.execPath}" "${BIN}" '${option}' team show demo`);
  expect(failed.code).toBe(3);
  const hint = /`mailroom ([^`]+)`/.exec(failed.stderr)?.[1];
  expect(hint).toBeDefined();
  const pasted = await sh(`"${process.execPath}" "${BIN}" ${hint}`);
  expect(pasted.stderr).toBe(''); // was: USAGE: Unknown arguments
  expect(pasted.code).toBe(0);
  const root = option.slice('--root='.length);
  expect((await sh(`"${process.execPath}" "${BIN}" '--root=${root}' team show demo`)).code).toBe(0);
});
