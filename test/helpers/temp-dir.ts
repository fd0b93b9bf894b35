/**
 * Temporary directories for tests: created under os.tmpdir(), removed by the returned cleanup.
 */
import { chmod, cp, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh temporary directory and a function that removes it. */
export interface TempDir {
  path: string;
  cleanup(): Promise<void>;
}

/**
 * Creates `<tmpdir>/<prefix>XXXXXX`. Its cleanup retries (up to 5 times, 100 ms apart, Node's
 * `maxRetries`) when the directory is not empty yet or busy: a process the test has just killed
 * (SIGKILL is delivered, not awaited) may still finish a file it was creating while rm walks the
 * tree — ENOTEMPTY in the cleanup, not a failure of what the test checked.
 */
export async function makeTempDir(prefix = 'mailroom-test-'): Promise<TempDir> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, cleanup: () => rm(path, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }) };
}

/**
 * Copies a fixture directory (e.g. a Claude Code snapshot) into a fresh temporary directory, and
 * makes the copies owner-writable as Claude Code's own files are (../shared is mounted read-only,
 * and mailroom refuses to replace read-only files).
 */
export async function copyToTempDir(source: string, prefix?: string): Promise<TempDir> {
  const dir = await makeTempDir(prefix);
  await cp(source, dir.path, { recursive: true });
  await makeOwnerWritable(dir.path);
  return dir;
}

async function makeOwnerWritable(path: string): Promise<void> {
  const s = await stat(path);
  await chmod(path, s.mode | 0o200);
  if (!s.isDirectory()) return;
  for (const name of await readdir(path)) await makeOwnerWritable(join(path, name));
}
