import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MailroomError } from '../../../src/errors.js';
import { makeDirs } from '../../../src/store/fs/make-dirs.js';
import { runCli } from '../../helpers/cli.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

describe('makeDirs', () => {
  let dir: TempDir | undefined;
  afterEach(() => dir?.cleanup());

  it('creates missing parents with the mode, and accepts a directory that exists', async () => {
    dir = await makeTempDir();
    const deep = join(dir.path, 'a', 'b', 'c');
    await makeDirs(deep, 0o700);
    await makeDirs(deep, 0o700);
    expect((await stat(deep)).isDirectory()).toBe(true);
    expect((await stat(join(dir.path, 'a'))).mode & 0o777).toBe(0o700);
  });

  it('fails with FILE_ACCESS under /proc instead of looping (Node recursive mkdir never returns there)', async () => {
    const err = await makeDirs('/proc/mailroom-test/teams').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MailroomError);
    expect((err as MailroomError).code).toBe('FILE_ACCESS');
  });

  it('the CLI exits 7 naming the directory when the root is under /proc', async () => {
    const run = await runCli(['--root', '/proc', 'team', 'create', 'x']);
    expect(run.code).toBe(7);
    expect(run.stderr).toContain('FILE_ACCESS: Cannot create directory /proc/teams');
  });
});
