/**
 * Task files: `tasks/<listId>/<id>.json`, one per task, locked with `<id>.json.lock`; list-wide
 * operations lock `tasks/<listId>/.lock` (lock directory `.lock.lock`); `.highwatermark` keeps the
 * highest id ever used (reference §5, §6).
 */
import { readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { MailroomError, isErrno } from '../../errors.js';
import { TaskSchema, canonicalTask, type Task } from '../../protocol/task.js';
import { corruptFile, readJsonFile, writeJsonFile, writeTextFile, FILE_MODE } from '../json-file.js';
import { withLock, type HeldLock } from '../lock.js';
import { lockDirFor } from '../paths.js';
import type { LockedTaskList } from '../store.js';
import { ensureDir, type FsContext } from './context.js';
import { mergeHighWatermark, mergeObject } from './recover-object.js';

const TASK_FILE = /^([1-9][0-9]*)\.json$/;

/**
 * Ids of every `<id>.json` file in the list, valid or not, in ascending numeric order. Ids stay
 * decimal strings (no leading zeros, so shorter is smaller): a JS number would round ids past 2^53.
 */
async function fileIds(ctx: FsContext, team: string): Promise<string[]> {
  try {
    const names = await readdir(ctx.layout.taskDir(team));
    return names.flatMap((n) => TASK_FILE.exec(n)?.[1] ?? []).sort(compareIds);
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return [];
    throw err;
  }
}

type TaskRead = { state: 'ok'; task: Task; text: string } | { state: 'missing' } | { state: 'invalid'; error: MailroomError };

async function readTaskFile(ctx: FsContext, team: string, id: string): Promise<TaskRead> {
  const path = ctx.layout.taskPath(team, id);
  let read;
  try {
    read = await readJsonFile(path);
  } catch (error) {
    if (error instanceof MailroomError) return { state: 'invalid', error };
    throw error;
  }
  if (read.state === 'missing') return read;
  const parsed = TaskSchema.safeParse(read.value);
  if (!parsed.success) return { state: 'invalid', error: corruptFile(path, parsed.error, 'does not match the task format') };
  const stored = (read.value as Task).id;
  if (stored !== id) {
    return { state: 'invalid', error: corruptFile(path, undefined, `does not match the task format: its id ${JSON.stringify(stored)} differs from its file name ${id}.json`) };
  }
  return { state: 'ok', task: read.value as Task, text: read.text };
}

/** Paths already reported as skipped by this process (a broken file is reported once, not per poll). */
const reported = new Set<string>();

/**
 * Valid tasks in numeric id order. Invalid files are skipped, as Claude Code treats them as absent;
 * each is reported once per process through `onWarning`, naming the file.
 */
export async function listTasks(ctx: FsContext, team: string): Promise<Task[]> {
  const tasks: Task[] = [];
  for (const id of await fileIds(ctx, team)) {
    const read = await readTaskFile(ctx, team, id);
    if (read.state === 'ok') tasks.push(read.task);
    if (read.state === 'invalid' && !reported.has(String(read.error.details.path))) {
      reported.add(String(read.error.details.path));
      ctx.lock.onWarning?.(`mailroom: skipping task file: ${read.error.message}`);
    }
  }
  return tasks;
}

/**
 * One task, or undefined when the file is missing. An invalid file reads as undefined too (as in
 * Claude Code), unless `strict` is set: then it throws FILE_CORRUPT naming the file.
 */
export async function readTask(ctx: FsContext, team: string, id: string, options: { strict?: boolean } = {}): Promise<Task | undefined> {
  if (!TASK_FILE.test(`${id}.json`)) return undefined;
  const read = await readTaskFile(ctx, team, id);
  if (read.state === 'invalid' && options.strict) throw read.error;
  return read.state === 'ok' ? read.task : undefined;
}

/** Builds TASK_NOT_FOUND for `id`. */
export function taskNotFound(team: string, id: string): MailroomError {
  return new MailroomError('TASK_NOT_FOUND', `Task #${id} not found in team "${team}". List tasks with \`mailroom task list\`.`, {
    details: { team, id },
  });
}

/** Locked read-modify-write of one task; `change` mutates it in place. @throws TASK_NOT_FOUND, FILE_CORRUPT */
export async function updateTask<T>(ctx: FsContext, team: string, id: string, change: (task: Task) => T | Promise<T>): Promise<T> {
  const path = ctx.layout.taskPath(team, id);
  if (!TASK_FILE.test(`${id}.json`)) throw taskNotFound(team, id);
  if ((await readTaskFile(ctx, team, id)).state === 'missing') throw taskNotFound(team, id);
  return withLock(path, lockDirFor(path), ctx.lock, async (lock) => {
    const read = await readTaskFile(ctx, team, id);
    if (read.state === 'missing') throw taskNotFound(team, id);
    if (read.state === 'invalid') throw read.error;
    const keys = Object.keys(read.task);
    const result = await change(read.task);
    const check = TaskSchema.safeParse(read.task);
    if (!check.success) throw new MailroomError('INTERNAL', `Refusing to write an invalid task to ${path}: ${check.error.message}`);
    await writeJsonFile(path, canonicalTask(read.task, keys), lock, { recovery: { baseText: read.text, merge: mergeObject } });
    return result;
  });
}

/** Orders decimal id strings without leading zeros numerically, exactly at any length. */
function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** The high-water mark (a JS number: rounded past 2^53), 0 when the file is missing. @throws FILE_CORRUPT when it is not a number */
export async function readHighWatermark(ctx: FsContext, team: string): Promise<number> {
  return Number(await highWatermark(ctx, team));
}

/** The high-water mark, exact, 0n when the file is missing. @throws FILE_CORRUPT when it is not a whole number */
async function highWatermark(ctx: FsContext, team: string): Promise<bigint> {
  const path = ctx.layout.highWatermarkPath(team);
  try {
    const text = (await readFile(path, 'utf8')).trim();
    if (!/^[0-9]+$/.test(text)) throw corruptFile(path, undefined, 'does not hold a whole number');
    return BigInt(text);
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return 0n;
    if (isErrno(err, 'EISDIR')) throw corruptFile(path, undefined, 'is a directory, not a file');
    throw err;
  }
}

/** Runs `fn` under the list lock (the `.lock` anchor is created first with an exclusive create). */
export async function withTaskList<T>(ctx: FsContext, team: string, fn: (list: LockedTaskList) => Promise<T>): Promise<T> {
  const anchor = ctx.layout.listLockAnchor(team);
  await ensureDir(ctx.layout.taskDir(team));
  await writeFile(anchor, '', { flag: 'a', mode: FILE_MODE });
  return withLock(anchor, lockDirFor(anchor), ctx.lock, (lock) => fn(lockedList(ctx, team, lock)));
}

function lockedList(ctx: FsContext, team: string, lock: HeldLock): LockedTaskList {
  return {
    nextId: async () => {
      const highestFile = BigInt((await fileIds(ctx, team)).at(-1) ?? 0);
      const mark = await highWatermark(ctx, team);
      return String((highestFile > mark ? highestFile : mark) + 1n);
    },
    writeNew: async (task) => {
      await writeJsonFile(ctx.layout.taskPath(team, task.id), canonicalTask(task), lock, { exclusive: true });
    },
    delete: async (id) => {
      const mark = await highWatermark(ctx, team);
      if (mark < BigInt(id)) {
        await writeTextFile(ctx.layout.highWatermarkPath(team), id, lock, { recovery: { baseText: String(mark), merge: mergeHighWatermark } });
      }
      await lock.assertHeld(`deleting task #${id}`);
      await unlink(ctx.layout.taskPath(team, id)).catch((err: unknown) => {
        if (!isErrno(err, 'ENOENT')) throw err;
      });
    },
  };
}
