/**
 * Shared state of the filesystem store: its layout and lock options.
 */
import type { Layout } from '../paths.js';
import type { LockOptions } from '../lock.js';
import { DIR_MODE } from '../json-file.js';
import { makeDirs } from '../make-dirs.js';

/** What every filesystem-store module needs. */
export interface FsContext {
  readonly layout: Layout;
  readonly lock: LockOptions;
}

/** `mkdir -p` with mode 0700 for the directories mailroom creates. */
export async function ensureDir(dir: string): Promise<void> {
  await makeDirs(dir, DIR_MODE);
}
