import { mkdtemp, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireLock } from '../../../src/store/fs/lock.js';
import { writeJsonFile } from '../../../src/store/fs/json-file.js';
import { isMailroomError } from '../../../src/errors.js';

/** Makes a held lock look abandoned: its mtime an hour old, as if its holder stopped refreshing it. */
async function age(lockDir: string): Promise<void> {
  const old = new Date(Date.now() - 3_600_000);
  await utimes(lockDir, old, old);
}

describe('a holder whose lock was taken over', () => {
  it('does not write afterwards and does not remove the new holder’s lock', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mailroom-lock-'));
    const file = join(dir, 'inbox.json');
    await writeFile(file, '"before"');
    const lockDir = `${file}.lock`;
    const warnings: string[] = [];
    const first = await acquireLock(file, lockDir);
    await age(lockDir);
    const second = await acquireLock(file, lockDir, { onWarning: (m) => warnings.push(m) });
    expect(warnings.join('\n')).toMatch(/took over a stale lock/);
    await writeJsonFile(file, 'second', second);

    const late = await writeJsonFile(file, 'first', first).then(() => 'written', (err: unknown) => err);
    expect(isMailroomError(late, 'LOCK_COMPROMISED')).toBe(true);
    expect(await readFile(file, 'utf8')).toBe('"second"');

    await first.release();
    expect((await stat(lockDir)).isDirectory()).toBe(true);
    await second.release();
    await expect(stat(lockDir)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
