/**
 * Break tests (session 16) of the once-an-hour durability warning's note
 * (`<root>/mailroom/notes/<hash>`, HostStore.firstInPeriod; docs/reliability.md "Durability is
 * checked, not assumed"): whatever is found at the note's path, a one-shot command still works
 * and still warns, and a note that is not one mailroom wrote is never overwritten; processes that
 * ask at once (one-shot commands started together) warn once between them.
 * - A FIFO at the note's path (backdated): the command opened it to write the new note and hung
 *   forever (the open of a FIFO for writing waits for a reader; not even SIGTERM ended it).
 * - A file with something else in it: overwritten with the note.
 * - Ten host stores (as ten processes) asking at once: each saw no note, each wrote one, each warned.
 */
import { execFile } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { lstat, mkdir, readFile, readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FsHostStore } from '../../src/store/fs/host-store.js';
import { BIN, type CliRun } from '../helpers/cli.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { cleanEnv } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

let redis: RedisServer | undefined;
async function volatileServer(): Promise<RedisServer> {
  if (!redis) {
    const s = await startRedis({ password: 'notes-test' }); // appendonly no: a durability problem
    cleanups.push(() => s.stop());
    redis = s;
  }
  return redis;
}

async function tempRoot(): Promise<TempDir> {
  const t = await makeTempDir('mailroom-notes-');
  cleanups.push(() => t.cleanup());
  return t;
}

/** `mailroom <args>` killed (SIGKILL) after `ms`: a hung command fails the test instead of hanging it. */
function runWithin(ms: number, args: readonly string[]): Promise<CliRun & { killed: boolean }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: cleanEnv({ MAILROOM_ALLOW_VOLATILE: '' }), timeout: ms, killSignal: 'SIGKILL' }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr, killed: err?.killed === true });
    });
  });
}

const warning = /warning: the Redis store at .* has appendonly no/g;
const anHourAgo = () => new Date(Date.now() - 61 * 60_000);

/** The note's path under `root`, after a first command wrote it. */
async function notePath(root: string, url: string): Promise<string> {
  const first = await runWithin(30_000, ['--store', url, '--root', root, 'team', 'list']);
  expect(first.code, first.stderr).toBe(0);
  expect(first.stderr.match(warning)).toHaveLength(1);
  const notes = join(root, 'mailroom', 'notes');
  const names = await readdir(notes);
  expect(names).toHaveLength(1);
  return join(notes, names[0]!);
}

describe('the durability warning\'s note', () => {
  it('a FIFO at the note\'s path: the one-shot command neither hangs nor writes into it, and warns', { timeout: 60_000 }, async () => {
    const s = await volatileServer();
    const root = await tempRoot();
    const note = await notePath(root.path, s.url);
    await import('node:fs/promises').then((fs) => fs.rm(note));
    execFileSync('mkfifo', [note]);
    await utimes(note, anHourAgo(), anHourAgo());
    const run = await runWithin(20_000, ['--store', s.url, '--root', root.path, 'team', 'list']);
    expect(run.killed, 'the command hung on the FIFO').toBe(false);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.match(warning)).toHaveLength(1);
    expect((await lstat(note)).isFIFO()).toBe(true);
  });

  it('a file that is not a note (other content): never overwritten; the command works and warns', { timeout: 60_000 }, async () => {
    const s = await volatileServer();
    const root = await tempRoot();
    const note = await notePath(root.path, s.url);
    await writeFile(note, '{"not": "a note", "truncated":');
    await utimes(note, anHourAgo(), anHourAgo());
    for (let i = 0; i < 2; i++) {
      const run = await runWithin(30_000, ['--store', s.url, '--root', root.path, 'team', 'list']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr.match(warning)).toHaveLength(1);
    }
    expect(await readFile(note, 'utf8')).toBe('{"not": "a note", "truncated":');
  });

  it('notes/ is a file (the note cannot be written): the command works and warns each time', { timeout: 60_000 }, async () => {
    const s = await volatileServer();
    const root = await tempRoot();
    await mkdir(join(root.path, 'mailroom'), { recursive: true });
    await writeFile(join(root.path, 'mailroom', 'notes'), 'in the way');
    for (let i = 0; i < 2; i++) {
      const run = await runWithin(30_000, ['--store', s.url, '--root', root.path, 'team', 'list']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr.match(warning)).toHaveLength(1);
    }
    expect(await readFile(join(root.path, 'mailroom', 'notes'), 'utf8')).toBe('in the way');
  });
});

describe('HostStore.firstInPeriod asked at once', () => {
  for (const [what, prepare] of [
    ['no note yet', async (_host: FsHostStore) => undefined],
    ['a note older than the period', async (host: FsHostStore) => {
      expect(await host.firstInPeriod('k', 60_000)).toBe(true);
      const notes = join(host.location, 'mailroom', 'notes');
      for (const f of await readdir(notes)) await utimes(join(notes, f), anHourAgo(), anHourAgo());
    }],
  ] as const) {
    it(`${what}: ten host stores (as ten processes) asking together are answered true once`, async () => {
      const root = await tempRoot();
      await prepare(new FsHostStore(root.path));
      const answers = await Promise.all(Array.from({ length: 10 }, () => new FsHostStore(root.path).firstInPeriod('k', 60_000)));
      expect(answers.filter(Boolean)).toHaveLength(1);
      expect(await new FsHostStore(root.path).firstInPeriod('k', 60_000)).toBe(false);
    });
  }
});
