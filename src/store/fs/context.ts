/**
 * Shared state of the filesystem store: its layout and lock options, and the two helpers every
 * transition uses — taking the lock of a file (Claude Code's lock directory `<file>.lock`) and
 * stamping the events it journals.
 */
import { existsSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { isErrno } from '../../errors.js';
import type { EventStamp } from '../../domain/events.js';
import type { Layout } from './paths.js';
import { withLock, type HeldLock, type LockOptions } from './lock.js';
import { DIR_MODE } from './json-file.js';
import { makeDirs } from './make-dirs.js';
import { lockDirFor } from './paths.js';
import type { OpContext } from '../team-store.js';

/** What every filesystem-store module needs. */
export interface FsContext {
  readonly layout: Layout;
  readonly lock: LockOptions;
}

/** `mkdir -p` with mode 0700 for the directories mailroom creates (one synchronous `stat` when it exists: the common case, inside critical sections). */
export async function ensureDir(dir: string): Promise<void> {
  if (existsSync(dir)) return;
  await makeDirs(dir, DIR_MODE);
}

/** True when `path` exists, a file or a directory (any other error than ENOENT is thrown). */
export async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    (err: unknown) => {
      if (isErrno(err, 'ENOENT')) return false;
      throw err;
    },
  );
}

/** Runs `fn` holding the lock of `file` (its directory must exist); `release` as {@link withLock}'s. */
export function locked<T>(ctx: FsContext, file: string, fn: (lock: HeldLock) => Promise<T>, release: 'wait' | 'background' = 'wait'): Promise<T> {
  return withLock(file, lockDirFor(file), ctx.lock, fn, undefined, release);
}

/** The instant of an operation (epoch ms): the caller's `now`, else the clock. */
export function nowOf(op: OpContext | undefined): number {
  return op?.now ?? Date.now();
}

/** The stamp of the events a mailroom operation journals. */
export function stampOf(team: string, op: OpContext | undefined): EventStamp {
  return { team, at: nowOf(op), source: 'mailroom', actor: op?.actor };
}
