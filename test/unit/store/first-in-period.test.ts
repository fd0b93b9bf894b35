/**
 * HostStore.firstInPeriod on files (the once-an-hour Redis durability warning of one-shot verbs):
 * once per period across processes, and never an error, a hang or a write through whatever sits at
 * the note's path (review, session 17: it wrote with `writeFile`, which blocks on a FIFO until a
 * reader comes and truncates a symlink's target).
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, symlink, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FsHostStore } from '../../../src/store/fs/host-store.js';
import { Layout } from '../../../src/store/fs/paths.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

const KEY = 'volatile-server redis://127.0.0.1:6379';
const HOUR = 3_600_000;
let dir: TempDir;
let host: FsHostStore;
let note: string;
beforeEach(async () => {
  dir = await makeTempDir('mailroom-first-in-period-');
  host = new FsHostStore(dir.path);
  note = new Layout(dir.path).notePath(KEY);
});
afterEach(async () => dir.cleanup());

describe('firstInPeriod (files)', () => {
  it('answers true once per period, again once the period has passed', async () => {
    expect(await host.firstInPeriod(KEY, HOUR)).toBe(true);
    expect(await new FsHostStore(dir.path).firstInPeriod(KEY, HOUR)).toBe(false);
    expect(await host.firstInPeriod('another key', HOUR)).toBe(true);
    const past = new Date(Date.now() - 2 * HOUR);
    await utimes(note, past, past);
    expect(await host.firstInPeriod(KEY, HOUR)).toBe(true);
    expect(await host.firstInPeriod(KEY, HOUR)).toBe(false);
  });

  it('a symlink at the note path: shown, and its target is not written', async () => {
    await mkdir(dirname(note), { recursive: true });
    const target = join(dir.path, 'precious.txt');
    await writeFile(target, 'keep me\n');
    const old = new Date(Date.now() - 2 * HOUR);
    await utimes(target, old, old);
    await symlink(target, note);
    expect(await host.firstInPeriod(KEY, HOUR)).toBe(true);
    expect(await readFile(target, 'utf8')).toBe('keep me\n');
  });

  it('a FIFO at the note path: shown at once, nothing blocks', async () => {
    await mkdir(dirname(note), { recursive: true });
    execFileSync('mkfifo', [note]);
    expect(await host.firstInPeriod(KEY, HOUR)).toBe(true);
    expect(await host.firstInPeriod(KEY, HOUR)).toBe(true);
  });

  it('a notes "directory" that cannot hold notes (a file there; works as root too): shown every time, never an error', async () => {
    await mkdir(dirname(dirname(note)), { recursive: true });
    await writeFile(dirname(note), 'not a directory\n');
    expect(await host.firstInPeriod(KEY, HOUR)).toBe(true);
    expect(await host.firstInPeriod(KEY, HOUR)).toBe(true);
  });
});
