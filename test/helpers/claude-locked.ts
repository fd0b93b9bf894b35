/**
 * Writes inbox and config files the way Claude Code 2.1.109 does, under its lock protocol: the real
 * proper-lockfile package, lock directory `<file>.lock`, stale 10 s (reference §6), read, change,
 * write the whole JSON array back (2-space indent). For tests where Claude Code is the other writer.
 */
import { createRequire } from 'node:module';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

interface ProperLockfile {
  lock(file: string, options: Record<string, unknown>): Promise<() => Promise<void>>;
}
const lockfile = createRequire(import.meta.url)('proper-lockfile') as ProperLockfile;

const OPTIONS = { stale: 10_000, realpath: false, retries: { retries: 1_000, minTimeout: 2, maxTimeout: 25 } };

/** Changes a JSON file under Claude Code's lock (a missing inbox starts as `[]`, created as 2.1.109 does). */
export async function underClaudeLock<T>(path: string, change: (value: T) => T, initial?: T): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  if (initial !== undefined) await writeFile(path, JSON.stringify(initial), { flag: 'wx' }).catch(() => undefined);
  const release = await lockfile.lock(path, { ...OPTIONS, lockfilePath: `${path}.lock` });
  try {
    const value = JSON.parse(await readFile(path, 'utf8')) as T;
    await writeFile(path, JSON.stringify(change(value), null, 2));
  } finally {
    await release();
  }
}

/** Appends entries to an inbox as Claude Code 2.1.109's SendMessage does. */
export function claudeAppend(path: string, ...entries: Array<Record<string, unknown>>): Promise<void> {
  return underClaudeLock<unknown[]>(path, (v) => [...v, ...entries], []);
}

/** Marks entries read as Claude Code 2.1.109 does once it delivered them (`read: true` in place). */
export function claudeMarkRead(path: string, which: (entry: Record<string, unknown>) => boolean = () => true): Promise<void> {
  return underClaudeLock<Array<Record<string, unknown>>>(path, (v) => v.map((e) => (which(e) ? { ...e, read: true } : e)));
}
