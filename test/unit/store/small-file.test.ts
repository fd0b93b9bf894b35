/**
 * readSmallFile judges the file it opened (break test, session 17: identity reads stat'ed the path,
 * then read it, so a FIFO swapped in between blocked the process). Opening a FIFO never blocks.
 */
import { execFileSync } from 'node:child_process';
import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { readSmallFile } from '../../../src/store/fs/small-file.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

let dir: TempDir;
beforeEach(async () => (dir = await makeTempDir('mailroom-small-file-')));
afterEach(async () => dir.cleanup());

it('reads a small regular file, and says missing, special (FIFO, device, directory) or large without reading', async () => {
  const file = join(dir.path, 'key.json');
  await writeFile(file, '{"a":1}', { mode: 0o600 });
  const ok = readSmallFile(file, 100);
  expect(ok.kind === 'ok' && ok.text).toBe('{"a":1}');
  expect(ok.kind === 'ok' && ok.stats.mode & 0o777).toBe(0o600);
  expect(readSmallFile(join(dir.path, 'none'), 100)).toEqual({ kind: 'missing' });
  expect(readSmallFile(file, 3)).toEqual({ kind: 'large', size: 7 });
  const fifo = join(dir.path, 'fifo');
  execFileSync('mkfifo', [fifo]);
  expect(readSmallFile(fifo, 100)).toEqual({ kind: 'special' }); // returns: the open did not wait for a writer
  const zero = join(dir.path, 'zero');
  await symlink('/dev/zero', zero);
  expect(readSmallFile(zero, 100)).toEqual({ kind: 'special' });
  expect(readSmallFile(dir.path, 100)).toEqual({ kind: 'special' });
});
