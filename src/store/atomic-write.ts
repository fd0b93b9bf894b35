/**
 * Atomic file replacement: write a temporary file `<file>.<uint32>` in the same directory, fsync
 * it, then rename it over the file, so a reader sees the old or the new content and never a torn
 * one (reference §6 "How mailroom writes"). The temporary name has the shape write-file-atomic
 * uses, so `mailroom doctor` finds leftovers of either (a writer killed before its rename).
 *
 * A `beforeRename` check runs after the slow part (write + fsync) and immediately before the
 * rename: lock holders confirm there that they still hold their lock, so a holder paused during
 * the write never replaces a newer file.
 */
import { randomInt } from 'node:crypto';
import { lstat, open, realpath, rename, stat, unlink } from 'node:fs/promises';
import { MailroomError } from '../errors.js';
import { FILE_MODE } from './modes.js';

/** Options of {@link writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** Runs right before the rename; if it throws, the temporary file is removed and nothing changes. */
  beforeRename?: () => Promise<void>;
}

/** The temporary sibling a write of `path` uses: `<path>.<decimal uint32>`. */
export function tempPathFor(path: string): string {
  return `${path}.${randomInt(0, 2 ** 32)}`;
}

/** Matches a temporary sibling name and captures the target's name: `team-lead.json.123` → `team-lead.json`. */
export const TEMP_NAME = /^(.+)\.(\d+)$/;

/**
 * Replaces `path` with `text` (UTF-8) atomically, with mode 0600 (through a symlink: its target).
 * @throws FILE_ACCESS when the file is read-only, whatever `beforeRename` throws, or the file
 * system error (the file is then unchanged).
 */
export async function writeFileAtomic(path: string, text: string, options: AtomicWriteOptions = {}): Promise<void> {
  const target = await writeTarget(path);
  const tmp = tempPathFor(target);
  const handle = await open(tmp, 'wx', FILE_MODE);
  let closed = false;
  let renamed = false;
  try {
    await handle.writeFile(text, 'utf8');
    await handle.chmod(FILE_MODE);
    await handle.sync();
    await handle.close();
    closed = true;
    await options.beforeRename?.();
    await rename(tmp, target);
    renamed = true;
  } finally {
    if (!closed) await handle.close().catch(() => undefined);
    if (!renamed) await unlink(tmp).catch(() => undefined);
  }
}

/**
 * The file a write of `path` replaces: `path`, or the file a symlink at `path` points to (so the
 * link survives, as with Claude Code's in-place writes; a dangling link is replaced). A file without
 * its owner write bit is refused: a rename would replace it regardless of its mode.
 * @throws MailroomError FILE_ACCESS when the file is read-only
 */
async function writeTarget(path: string): Promise<string> {
  const link = await lstat(path).catch(() => undefined);
  const target = link?.isSymbolicLink() ? await realpath(path).catch(() => path) : path;
  const s = target === path ? link : await stat(target).catch(() => undefined);
  if (s && s.isFile() && (s.mode & 0o200) === 0) {
    throw new MailroomError('FILE_ACCESS', `${target} is read-only (mode ${(s.mode & 0o777).toString(8).padStart(4, '0')}): mailroom does not replace read-only files. Make it writable (chmod u+w) if it should change, then retry.`, {
      details: { path: target },
    });
  }
  return target;
}
