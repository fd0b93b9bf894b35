/**
 * `mkdir -p` without Node's recursive mkdir, which loops forever on some file systems (e.g. a
 * root under /proc, where mkdir answers ENOENT for a parent that exists).
 */
import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { MailroomError, isErrno } from '../../errors.js';

/**
 * Creates `dir` and any missing parents, each with `mode` (subject to the umask); a directory that
 * already exists is fine. @throws FILE_ACCESS when the file system refuses a directory whose parent
 * exists; other file system errors (ENOTDIR, EACCES, …) unchanged
 */
export async function makeDirs(dir: string, mode?: number): Promise<void> {
  const missing: string[] = [];
  for (let cur = resolve(dir); ; cur = dirname(cur)) {
    if (await exists(cur)) break;
    missing.push(cur);
    if (dirname(cur) === cur) break;
  }
  for (const d of missing.reverse()) {
    try {
      await mkdir(d, mode === undefined ? {} : { mode });
    } catch (err) {
      if (isErrno(err, 'ENOENT')) throw refused(d, err);
      if (!isErrno(err, 'EEXIST')) throw err;
    }
  }
}

/** mkdir said ENOENT although the parent exists (procfs, sysfs …): no directory can be made there. */
function refused(dir: string, cause: unknown): MailroomError {
  return new MailroomError('FILE_ACCESS', `Cannot create directory ${dir}: its file system does not allow it. Use a store root on a normal disk (--root, $MAILROOM_ROOT).`, {
    cause,
    details: { path: dir },
  });
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return false;
    throw err;
  }
}
