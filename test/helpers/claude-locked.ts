/**
 * Writes inbox and config files the way Claude Code 2.1.109 does, under its lock protocol: the real
 * proper-lockfile package, lock directory `<file>.lock`, stale 10 s (reference §6), read, change,
 * write the whole JSON array back (2-space indent). For tests where Claude Code is the other writer.
 */
import { createRequire } from 'node:module';
import { mkdir, readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

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

const LIST_OPTIONS = { stale: 10_000, retries: { retries: 1_000, minTimeout: 5, maxTimeout: 100 } };

/** Runs `body` under a task list's lock as Claude Code takes it (anchor `.lock` created `wx`, lock `.lock.lock`). */
async function underListLock<T>(dir: string, body: () => Promise<T>): Promise<T> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, '.lock'), '', { flag: 'wx' }).catch(() => undefined);
  const release = await lockfile.lock(join(dir, '.lock'), LIST_OPTIONS);
  try {
    return await body();
  } finally {
    await release();
  }
}

/**
 * Creates a task as Claude Code 2.1.109's TaskCreate does: under the list lock, id = max(highest
 * numeric `*.json` name, `.highwatermark`) + 1, file `{id, subject, description, activeForm?,
 * status: "pending", blocks: [], blockedBy: []}` written whole. @returns the new id
 */
export function claudeCreateTask(dir: string, draft: { subject: string; description: string; activeForm?: string }): Promise<string> {
  return underListLock(dir, async () => {
    const names = (await readdir(dir)).filter((n) => /^\d+\.json$/.test(n)).map((n) => BigInt(n.slice(0, -5)));
    const hw = await readFile(join(dir, '.highwatermark'), 'utf8').then((s) => BigInt(s.trim() || '0'), () => 0n);
    const id = String([hw, ...names].reduce((a, b) => (b > a ? b : a), 0n) + 1n);
    await writeFile(join(dir, `${id}.json`), JSON.stringify({ id, ...draft, status: 'pending', blocks: [], blockedBy: [] }, null, 2));
    return id;
  });
}

/** Updates a task as Claude Code's TaskUpdate does (its task lock, whole file rewritten). */
export function claudeUpdateTask(dir: string, id: string, change: (task: Record<string, unknown>) => Record<string, unknown>): Promise<void> {
  return underClaudeLock(join(dir, `${id}.json`), change);
}

/** Deletes a task as Claude Code does: raise `.highwatermark`, unlink, strip the id from every other task's links. */
export function claudeDeleteTask(dir: string, id: string): Promise<void> {
  return underListLock(dir, async () => {
    const hw = await readFile(join(dir, '.highwatermark'), 'utf8').then((s) => BigInt(s.trim() || '0'), () => 0n);
    if (BigInt(id) > hw) await writeFile(join(dir, '.highwatermark'), id);
    await unlink(join(dir, `${id}.json`));
    for (const n of (await readdir(dir)).filter((x) => /^\d+\.json$/.test(x))) {
      await underClaudeLock<{ blocks: string[]; blockedBy: string[] }>(join(dir, n), (t) => ({ ...t, blocks: t.blocks.filter((x) => x !== id), blockedBy: t.blockedBy.filter((x) => x !== id) }));
    }
  });
}

/** Adds `blocker` blocks `blocked` as Claude Code does: both task files written, each under its lock. */
export async function claudeLink(dir: string, blocker: string, blocked: string): Promise<void> {
  await underClaudeLock<{ blocks: string[] }>(join(dir, `${blocker}.json`), (t) => ({ ...t, blocks: [...new Set([...t.blocks, blocked])] }));
  await underClaudeLock<{ blockedBy: string[] }>(join(dir, `${blocked}.json`), (t) => ({ ...t, blockedBy: [...new Set([...t.blockedBy, blocker])] }));
}
