/**
 * Locks across real processes: a holder paused past the stale time (SIGSTOP/SIGCONT) neither
 * crashes nor writes afterwards, and concurrent takeovers of one stale lock never yield two
 * holders (proper-lockfile issue 121). Stale time 3 s here (the `staleMs` option) to stay fast.
 */
import { mkdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireLock, sleep } from '../../src/store/fs/lock.js';
import { writeJsonFile } from '../../src/store/fs/json-file.js';
import { startChild } from '../helpers/child.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

const CHILD = fileURLToPath(new URL('../helpers/lock-child.mjs', import.meta.url));
const STALE = 3000;

let tmp: TempDir;
beforeEach(async () => {
  tmp = await makeTempDir('mailroom-locks-');
});
afterEach(async () => {
  await tmp.cleanup();
});

async function waitUntilStale(lockDir: string): Promise<void> {
  while (Date.now() - (await stat(lockDir)).mtimeMs <= STALE) await sleep(100);
}

describe('a lock holder paused past the stale time', () => {
  it('does not crash, does not write after resuming, and leaves the new holder’s lock alone', async () => {
    const file = join(tmp.path, 'inbox.json');
    await writeFile(file, '"initial"');
    const child = startChild(CHILD, ['hold', file, String(STALE)]);
    await child.waitForLine('locked');
    child.proc.kill('SIGSTOP');
    await waitUntilStale(`${file}.lock`);

    const warnings: string[] = [];
    const lock = await acquireLock(file, `${file}.lock`, { staleMs: STALE, onWarning: (m) => warnings.push(m) });
    expect(warnings.join('\n')).toMatch(/took over a stale lock/);
    await writeJsonFile(file, 'parent', lock);

    child.proc.kill('SIGCONT');
    child.send('go');
    const code = await child.exited;
    expect(child.stderr()).toMatch(/^LOCK_COMPROMISED: Lost the lock/m);
    expect(child.stderr()).not.toMatch(/\n\s+at /);
    expect(code).toBe(6);
    expect(child.stdout()).not.toMatch(/wrote/);
    expect(await readFile(file, 'utf8')).toBe('"parent"');
    expect((await stat(`${file}.lock`)).isDirectory()).toBe(true);
    expect(lock.compromised).toBe(false);
    await lock.release();
  });
});

describe('concurrent takeovers of one stale lock', () => {
  it('never give two processes the lock at once', async () => {
    const file = join(tmp.path, 'inbox.json');
    await writeFile(file, '[]');
    for (let round = 0; round < 4; round++) {
      await mkdir(`${file}.lock`);
      const old = new Date(Date.now() - 3_600_000);
      await utimes(`${file}.lock`, old, old);
      const children = Array.from({ length: 6 }, () => startChild(CHILD, ['race', file, String(STALE)]));
      await Promise.all(children.map((c) => c.waitForLine('ready')));
      for (const c of children) c.send('go');
      const codes = await Promise.all(children.map((c) => c.exited));
      const out = children.map((c) => c.stdout()).join('');
      expect(out).not.toMatch(/OVERLAP/);
      expect(codes).toEqual([0, 0, 0, 0, 0, 0]);
      expect(children.filter((c) => /took over a stale lock/.test(c.stderr()))).toHaveLength(1);
    }
  });
});
