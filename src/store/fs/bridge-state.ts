/**
 * The bridge's saved state on this machine (`<root>/mailroom/bridge/<team>.json`, docs/bridge.md):
 * opaque text written atomically (temp file + rename), so a bridge killed mid-write leaves the
 * previous state whole; and its log (`<team>.log.ndjson` beside it): lines appended since, each
 * on disk (fdatasync) before the append resolves, so a step saves what it changed, not the whole
 * state. Writing the state whole empties the log, after the rename: a crash in between leaves
 * lines the new text already holds, which the bridge applies again to the same result.
 */
import { closeSync, constants, fdatasyncSync, fstatSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { MailroomError } from '../../errors.js';
import { writeFileAtomic } from './atomic-write.js';
import { ensureDir, type FsContext } from './context.js';
import { FILE_MODE } from './modes.js';

/** The state text, or undefined when there is none. */
export async function readBridgeState(ctx: FsContext, team: string): Promise<string | undefined> {
  try {
    return await readFile(ctx.layout.bridgeStatePath(team), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Replaces the state text atomically, then empties the log. @throws FILE_ACCESS (naming the file; the old state is then unchanged) */
export async function writeBridgeState(ctx: FsContext, team: string, text: string): Promise<void> {
  const path = ctx.layout.bridgeStatePath(team);
  await ensureDir(dirname(path));
  await writeFileAtomic(path, text);
  await rm(ctx.layout.bridgeStateLogPath(team), { force: true });
}

/** Appends one line to the log, synced to disk. @throws FILE_ACCESS */
export async function appendBridgeStateLog(ctx: FsContext, team: string, line: string): Promise<void> {
  const path = ctx.layout.bridgeStateLogPath(team);
  await ensureDir(dirname(path));
  try {
    // Synchronous: one small write and its sync, no thread-pool round trips (docs/decisions.md
    // "Synchronous I/O in critical sections").
    const fd = openSync(path, 'a', FILE_MODE);
    try {
      const created = fstatSync(fd).size === 0;
      writeSync(fd, `${line}\n`);
      fdatasyncSync(fd);
      if (created) syncDir(dirname(path)); // the new log's name, durable too
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    throw new MailroomError('FILE_ACCESS', `Cannot append to the bridge state log ${path}: ${(err as Error).message}. Check the directory's permissions and free space.`);
  }
}

/** The log's lines, oldest first ([] when none). */
export async function readBridgeStateLog(ctx: FsContext, team: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(ctx.layout.bridgeStateLogPath(team), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return text.split('\n').filter((l) => l !== '');
}

function syncDir(dir: string): void {
  const fd = openSync(dir, constants.O_RDONLY);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
