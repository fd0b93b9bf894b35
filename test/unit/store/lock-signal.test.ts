/**
 * Ctrl-C (SIGINT) or SIGTERM while a lock is held: the lock directory is removed before the
 * process dies of the signal, so the next writer does not wait out the 10 s stale time.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

const CHILD = fileURLToPath(new URL('../../helpers/lock-child.mjs', import.meta.url));

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

describe('a lock holder stopped by a signal', () => {
  let dir: TempDir | undefined;
  afterEach(() => dir?.cleanup());

  it.each(['SIGINT', 'SIGTERM'] as const)('%s: the lock directory is gone and the process died of the signal', async (signal) => {
    dir = await makeTempDir();
    const file = join(dir.path, 'inbox.json');
    const child = spawn(process.execPath, [CHILD, 'hold', file, '10000'], { stdio: ['pipe', 'pipe', 'pipe'] });
    await new Promise<void>((resolve) => child.stdout.on('data', (c: Buffer) => c.toString().includes('locked') && resolve()));
    expect(await exists(`${file}.lock`)).toBe(true);
    child.kill(signal);
    const [code, killedBy] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
    expect({ code, killedBy }).toEqual({ code: null, killedBy: signal });
    expect(await exists(`${file}.lock`)).toBe(false);
  });

  // CI: `watch` (a process.once listener registered before its journal lock) died of SIGTERM when
  // the signal came while a lock was held: the once listener had removed itself before the lock's
  // listener counted the others, so the lock's listener thought it was alone and re-raised.
  it.each(['SIGINT', 'SIGTERM'] as const)('%s with a once listener of its own: the process stops cleanly (exit 0) and the lock is gone', async (signal) => {
    dir = await makeTempDir();
    const file = join(dir.path, 'inbox.json');
    const child = spawn(process.execPath, [CHILD, 'graceful', file, '10000'], { stdio: ['pipe', 'pipe', 'pipe'] });
    await new Promise<void>((resolve) => child.stdout.on('data', (c: Buffer) => c.toString().includes('locked') && resolve()));
    child.kill(signal);
    const [code, killedBy] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
    expect({ code, killedBy }).toEqual({ code: 0, killedBy: null });
    expect(await exists(`${file}.lock`)).toBe(false);
  });
});
