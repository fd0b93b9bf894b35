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
});
