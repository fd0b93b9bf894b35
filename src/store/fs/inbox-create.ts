/**
 * Creating an inbox file (reference §3 "Lazy creation").
 */
import { link, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isErrno } from '../../errors.js';
import { tempPathFor } from './atomic-write.js';
import { FILE_MODE } from './modes.js';
import { ensureDir, exists } from './context.js';

/**
 * Creates the inbox as `[]` unless it exists. Exclusive like Claude Code 2.1.109's `wx` create, but
 * without its empty moment: `[]` is written to a temporary file that is then hard-linked into place
 * (link fails if the inbox exists), so a reader never sees an empty inbox file.
 */
export async function ensureInbox(path: string): Promise<void> {
  if (await exists(path)) return;
  await ensureDir(dirname(path));
  const tmp = tempPathFor(path);
  await writeFile(tmp, '[]', { flag: 'wx', mode: FILE_MODE });
  try {
    await link(tmp, path);
  } catch (err) {
    if (isErrno(err, 'EEXIST')) return;
    await writeFile(path, '[]', { flag: 'wx', mode: FILE_MODE }).catch((e: unknown) => {
      if (!isErrno(e, 'EEXIST')) throw e;
    });
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
}
