/**
 * Temporary directories for tests: created under os.tmpdir(), removed by the returned cleanup.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh temporary directory and a function that removes it. */
export interface TempDir {
  path: string;
  cleanup(): Promise<void>;
}

/** Creates `<tmpdir>/<prefix>XXXXXX`. */
export async function makeTempDir(prefix = 'mailroom-test-'): Promise<TempDir> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, cleanup: () => rm(path, { recursive: true, force: true }) };
}

/** Copies a fixture directory (e.g. a Claude Code snapshot) into a fresh temporary directory. */
export async function copyToTempDir(source: string, prefix?: string): Promise<TempDir> {
  const dir = await makeTempDir(prefix);
  await cp(source, dir.path, { recursive: true });
  return dir;
}
