/**
 * Files a user points mailroom at (a team file for `mailroom run`, a script for the scripted
 * model). They are not team state, so they are not part of {@link Store}; reading them still goes
 * through src/store/ so every disk access of the product lives here.
 */
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { MailroomError, isErrno } from '../../errors.js';
import { makeDirs } from './make-dirs.js';

/**
 * Reads a UTF-8 text file given on the command line or in a config.
 * @throws INVALID_ARGUMENT when the file does not exist or is a directory.
 */
export async function readUserFile(path: string, what = 'file'): Promise<string> {
  const abs = resolve(path);
  try {
    return await readFile(abs, 'utf8');
  } catch (err) {
    if (isErrno(err, 'ENOENT') || isErrno(err, 'EISDIR')) {
      throw new MailroomError('INVALID_ARGUMENT', `Cannot read ${what} ${abs}: ${isErrno(err, 'ENOENT') ? 'no such file' : 'it is a directory'}. Check the path.`, {
        cause: err,
        details: { path: abs },
      });
    }
    throw err;
  }
}

/**
 * Creates a directory the user named (e.g. a work directory), with parents; no-op when it exists.
 * Returns its absolute path. @throws INVALID_ARGUMENT naming `what` when it cannot be made (a file
 * in the way, no permission, a file system that refuses directories)
 */
export async function ensureUserDir(path: string, what = 'directory'): Promise<string> {
  const abs = resolve(path);
  try {
    await makeDirs(abs);
  } catch (err) {
    const why = isErrno(err, 'ENOTDIR') || isErrno(err, 'EEXIST') ? 'a file stands where a directory belongs' : isErrno(err, 'EACCES') || isErrno(err, 'EPERM') ? 'permission denied' : 'the file system refused it';
    throw new MailroomError('INVALID_ARGUMENT', `Cannot create the ${what} ${abs}: ${why}. Name a directory you can write.`, { cause: err, details: { path: abs } });
  }
  return abs;
}

/**
 * The modification time (ms since the epoch) of a file the user's tasks write, e.g. a `mailroom
 * run` task's declared output; undefined when nothing is there (or a part of the path is a file).
 * Other errors (permission denied) are thrown.
 */
export async function userFileMtimeMs(path: string): Promise<number | undefined> {
  try {
    return (await stat(resolve(path))).mtimeMs;
  } catch (err) {
    if (isErrno(err, 'ENOENT') || isErrno(err, 'ENOTDIR')) return undefined;
    throw err;
  }
}

/**
 * Checks that a directory the user named (e.g. a teammate's `--cwd`) exists and is a directory.
 * @returns its absolute path (resolved against this process's working directory).
 * @throws INVALID_ARGUMENT naming the path when it does not exist or is not a directory
 */
export async function requireUserDir(path: string, what = 'directory'): Promise<string> {
  const abs = resolve(path);
  const found = await stat(abs).catch((err: unknown) => {
    if (isErrno(err, 'ENOENT') || isErrno(err, 'ENOTDIR')) return undefined;
    throw err;
  });
  if (found?.isDirectory()) return abs;
  const why = found ? 'is not a directory' : 'does not exist';
  throw new MailroomError('INVALID_ARGUMENT', `The ${what} ${abs} ${why}. Create it or pass an existing directory.`, { details: { path: abs } });
}
