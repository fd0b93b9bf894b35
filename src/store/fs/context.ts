/**
 * Shared state of the filesystem store: its layout and lock options.
 */
import { mkdir } from 'node:fs/promises';
import type { Layout } from '../paths.js';
import type { LockOptions } from '../lock.js';
import { DIR_MODE } from '../json-file.js';

/** What every filesystem-store module needs. */
export interface FsContext {
  readonly layout: Layout;
  readonly lock: LockOptions;
}

/** `mkdir -p` with mode 0700 for the directories mailroom creates. */
export async function ensureDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: DIR_MODE });
}
