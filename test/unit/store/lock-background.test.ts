/**
 * A lock released in the background (HeldLock.releaseInBackground: a woken teammate's take, issue
 * 24): the caller goes on before the lock directory is removed, yet the lock behaves as one
 * released in place — this process takes it again at once (no back-off as if another process held
 * it), a process that exits meanwhile still removes it, and the exit handler never removes a lock
 * directory another holder made after this one was gone.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, rmdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DirLock } from '../../../src/store/fs/lock-dir.js';
import { acquireLock, withLock } from '../../../src/store/fs/lock.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

const CHILD = fileURLToPath(new URL('../../helpers/lock-child.mjs', import.meta.url));

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir('mailroom-lock-bg-');
});
afterEach(() => dir.cleanup());

describe('a lock released in the background', () => {
  it('is removed, and this process takes it again at once, without waiting for another holder', async () => {
    const file = join(dir.path, 'sidecar.json');
    const lockDir = `${file}.lock`;
    for (let round = 0; round < 20; round++) {
      expect(await withLock(file, lockDir, {}, () => Promise.resolve(round), undefined, 'background')).toBe(round);
      // One `mkdir`, no retry: it finds the lock free only if this process's own removal is waited for.
      const again = await DirLock.create(lockDir, 10_000, () => undefined);
      expect(again).toBeDefined();
      await again!.release();
    }
    const last = await acquireLock(file, lockDir, {});
    last.releaseInBackground();
    await (await acquireLock(file, lockDir, { waitMs: 1_000 })).release();
    expect(existsSync(lockDir)).toBe(false);
  });

  it('is removed when the process exits before the removal finished', async () => {
    const file = join(dir.path, 'inbox.json');
    for (let round = 0; round < 5; round++) {
      const child = spawn(process.execPath, [CHILD, 'exit-releasing', file, '10000'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const [code] = (await once(child, 'exit')) as [number | null];
      expect({ code, err }).toEqual({ code: 0, err: '' });
      expect(existsSync(`${file}.lock`)).toBe(false);
    }
  });

  it('the exit handler leaves a lock directory made by another holder after this one was removed', async () => {
    const lockDir = join(dir.path, 'config.json.lock');
    const lock = await DirLock.create(lockDir, 10_000, () => undefined);
    expect(lock).toBeDefined();
    // This holder's directory is removed (as a finished background removal) and another process takes the lock.
    rmdirSync(lockDir);
    mkdirSync(lockDir);
    const later = new Date(Date.now() + 5_000);
    utimesSync(lockDir, later, later);
    lock!.releaseSync();
    expect(existsSync(lockDir)).toBe(true);
  });
});
