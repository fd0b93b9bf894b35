/**
 * The index of a task list (issue 24 item 4): `<root>/mailroom/task-index/<list>.ndjson`, mailroom's
 * own files outside Claude Code's `tasks/` (which stays exactly what Claude Code writes and reads).
 * One line per task in id order — what `claim --next` needs to choose (status, owner, blockers,
 * `_internal`, `requires`) and the `stat` of the task file it was taken from — after a header line
 * `{"v":1}`.
 *
 * It is a cache, never trusted over the task files: a line is used only while its task file has
 * the size, inode and mtime recorded on it; a line whose file changed (Claude Code writes task files
 * in place, without telling anyone), and a line recorded less than {@link RACY_MS} after its file's
 * mtime (a later write within the filesystem's timestamp resolution could leave the stat the
 * same), is re-read from the file. A missing or unreadable index is rebuilt from the task files.
 * The store's task writes record the task they wrote in the same locked step (under the task or
 * list lock, then the index's own lock), so the next claim finds it current.
 *
 * `claim --next` (under the list lock) walks the lines in id order: each task below the one it
 * takes is checked by one `stat` (its blockers too), so a claim costs a few system calls per task
 * that is not ready below the first ready one, not a read and parse of the whole board. Only when no
 * indexed task is ready does it list the directory for task files the index does not know (a task
 * Claude Code created), and read those.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, type BigIntStats } from 'node:fs';
import { basename, join } from 'node:path';
import { compareTaskIds, isReady, isInternal } from '../../domain/task-board.js';
import { taskRequires } from '../../domain/capabilities.js';
import type { Task } from '../../protocol/task.js';
import { ensureDir, locked, type FsContext } from './context.js';
import { FILE_MODE } from './json-file.js';

/** A line recorded within this long (ms) after its file's mtime is re-read before use. */
export const RACY_MS = 2_000;

/** What the index keeps of one task: enough to decide readiness (a Task in shape, with empty texts). */
interface Line {
  task: Task;
  /** `ino:size:mtimeNs` of the file when it was read. */
  stat: string;
  /** Recorded within {@link RACY_MS} of the file's mtime: re-read before use. */
  racy: boolean;
}

type Row = [id: string, status: Task['status'], owner: string, blockedBy: string[], internal: 0 | 1, requires: string[], stat: string, racy: 0 | 1];

/** `<root>/mailroom/task-index/<list>/`: the index's directory (`meta.json`, `c<n>.ndjson`). */
export function taskIndexPath(ctx: FsContext, team: string): string {
  return join(ctx.layout.root, 'mailroom', 'task-index', basename(ctx.layout.taskDir(team)));
}

function statKey(s: BigIntStats): string {
  return `${s.ino}:${s.size}:${s.mtimeNs}`;
}

/** The `stat` of a task file, or undefined when it is gone. */
export function statTask(ctx: FsContext, team: string, id: string): BigIntStats | undefined {
  try {
    return statSync(ctx.layout.taskPath(team, id), { bigint: true });
  } catch {
    return undefined;
  }
}

/** The index line of `task`, read from a file whose stat was `s`. */
export function lineOf(task: Task, s: BigIntStats): Line {
  const requires = taskRequires(task);
  const summary: Task = { id: task.id, subject: '', description: '', status: task.status, blocks: [], blockedBy: [...task.blockedBy] };
  if (task.owner) summary.owner = task.owner;
  if (isInternal(task) || requires.length > 0) summary.metadata = { ...(isInternal(task) ? { _internal: true } : {}), ...(requires.length > 0 ? { requires } : {}) };
  const racy = Date.now() - Number(s.mtimeNs / 1_000_000n) < RACY_MS;
  return { task: summary, stat: statKey(s), racy };
}

function rowOf(line: Line): Row {
  const t = line.task;
  return [t.id, t.status, t.owner ?? '', t.blockedBy, isInternal(t) ? 1 : 0, taskRequires(t), line.stat, line.racy ? 1 : 0];
}

function fromRow(row: Row): Line {
  const [id, status, owner, blockedBy, internal, requires, stat, racy] = row;
  const task: Task = { id, subject: '', description: '', status, blocks: [], blockedBy };
  if (owner) task.owner = owner;
  if (internal || requires.length > 0) task.metadata = { ...(internal ? { _internal: true } : {}), ...(requires.length > 0 ? { requires } : {}) };
  return { task, stat, racy: racy === 1 };
}

/** Task ids per chunk file: a claim or a task write reads and rewrites one chunk, not the whole index. */
export const CHUNK = 256n;

function chunkOf(id: string): bigint {
  return (BigInt(id) - 1n) / CHUNK;
}

/** Thrown inside {@link TaskIndex} when a chunk it should have is missing or unreadable. */
class BrokenIndex extends Error {}

/**
 * The index of one list, read lazily: `meta.json` (`{"v":1,"upTo":"<id>"}`) at once, a chunk file
 * (`c<n>.ndjson`, the lines of ids n·256+1 … (n+1)·256) when one of its ids is first asked for, a
 * line parsed when first used.
 */
export class TaskIndex {
  private readonly parsed = new Map<string, Line | undefined>();
  private readonly chunks = new Map<bigint, Map<string, string>>();
  private readonly dirty = new Set<bigint>();
  private metaChanged = false;

  private constructor(
    private readonly ctx: FsContext,
    private readonly team: string,
  ) {}

  /** Reads the index's meta; an empty index (to be rebuilt) when it is missing or unreadable. */
  static load(ctx: FsContext, team: string): TaskIndex {
    const index = new TaskIndex(ctx, team);
    try {
      const header = /^\{"v":1,"upTo":"(0|[1-9][0-9]*)","dir":"([0-9:.-]*)"\}\n?$/.exec(readFileSync(join(taskIndexPath(ctx, team), 'meta.json'), 'utf8'));
      // A task directory made anew (the team deleted and created again: ids start over) is another list.
      if (!header || header[2] !== dirIdentity(ctx, team)) throw new BrokenIndex('not this list\'s index');
      index.upTo = header[1]!;
    } catch {
      index.reset();
    }
    return index;
  }

  /** Forgets everything: the index is rebuilt from the task files (and written whole). */
  reset(): void {
    this.missing = true;
    this.upTo = '0';
    this.chunks.clear();
    this.parsed.clear();
    this.verified.clear();
    this.metaChanged = true;
    this.cleared = true;
  }
  private cleared = false;

  /**
   * Every task file with an id up to this one has its line (as of the walk or rebuild that got this
   * far); lines above it may exist (tasks the store created), but other files may too.
   */
  upTo = '0';

  /** True when there was no usable index: the caller fills it from the task files. */
  missing = false;

  /** The indexed ids up to {@link upTo}, in id order, chunk by chunk (each chunk read when reached). @throws BrokenIndex */
  *idsUpTo(): Generator<string> {
    if (this.upTo === '0') return;
    const last = chunkOf(this.upTo);
    for (let k = 0n; k <= last; k++) {
      for (const id of [...this.chunk(k, true).keys()].sort(compareTaskIds)) {
        if (compareTaskIds(id, this.upTo) > 0) return;
        yield id;
      }
    }
  }

  /** Raises {@link upTo} to `id` (every file up to it now has its line). */
  raiseUpTo(id: string): void {
    if (compareTaskIds(id, this.upTo) > 0) {
      this.upTo = id;
      this.metaChanged = true;
    }
  }

  /**
   * The task `id` as its file is now (only the fields readiness needs), or undefined when the file
   * is gone or invalid: the indexed line when the file's stat still matches and the line is not
   * racy, else the file re-read through `read` (and the line replaced).
   */
  async current(id: string, read: (id: string) => Promise<Task | undefined>): Promise<Task | undefined> {
    if (this.parsed.has(id) && this.verified.has(id)) return this.parsed.get(id)?.task;
    const s = statTask(this.ctx, this.team, id);
    const known = this.line(id);
    this.verified.add(id);
    if (s && known && !known.racy && known.stat === statKey(s)) return known.task;
    if (!s) {
      if (known) this.drop(id);
      return undefined;
    }
    const task = await read(id);
    const after = statTask(this.ctx, this.team, id);
    if (!task || !after) {
      if (known) this.drop(id);
      return undefined;
    }
    // A file that changed while it was read is kept racy: the next use reads it again.
    const line = lineOf(task, after);
    if (statKey(after) !== statKey(s)) line.racy = true;
    this.put(line);
    return task;
  }
  private readonly verified = new Set<string>();

  /** Records `task` as just written (its file's stat now). */
  put(line: Line): void {
    const k = chunkOf(line.task.id);
    this.parsed.set(line.task.id, line);
    this.chunk(k, false).set(line.task.id, JSON.stringify(rowOf(line)));
    this.dirty.add(k);
  }

  /** Forgets task `id` (its file is gone). */
  drop(id: string): void {
    const k = chunkOf(id);
    this.parsed.set(id, undefined);
    this.chunk(k, false).delete(id);
    this.dirty.add(k);
  }

  /** Leaves the index files as they are (nothing to save). */
  keep(): void {
    this.dirty.clear();
    this.metaChanged = false;
    this.cleared = false;
  }

  /** Writes the changed chunks, then the meta (temp file + rename each; a cache: no fsync). */
  save(): void {
    if (this.dirty.size === 0 && !this.metaChanged) return;
    const dir = taskIndexPath(this.ctx, this.team);
    if (this.cleared) rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (const k of this.dirty) {
      const lines = [...this.chunk(k, false).entries()].sort(([a], [b]) => compareTaskIds(a, b)).map(([, text]) => text);
      replace(join(dir, `c${k}.ndjson`), ['{"v":1}', ...lines].join('\n') + '\n');
    }
    // Every chunk up to upTo exists, an empty one too (a missing one means the index is broken).
    if (this.metaChanged && this.upTo !== '0') {
      for (let k = 0n; k <= chunkOf(this.upTo); k++) {
        const file = join(dir, `c${k}.ndjson`);
        if (!this.dirty.has(k) && (this.cleared || !existsSync(file))) replace(file, '{"v":1}\n');
      }
    }
    replace(join(dir, 'meta.json'), `{"v":1,"upTo":"${this.upTo}","dir":"${dirIdentity(this.ctx, this.team)}"}\n`);
    this.keep();
  }

  /**
   * The raw lines of chunk `k` (read on first use). A chunk file that is missing or unreadable is
   * empty when `required` is false (a line is about to be written into it), and breaks the index when
   * true (every chunk up to upTo exists, even an empty one). @throws BrokenIndex
   */
  private chunk(k: bigint, required: boolean): Map<string, string> {
    const have = this.chunks.get(k);
    if (have) return have;
    const raw = new Map<string, string>();
    if (!this.cleared) {
      try {
        const lines = readFileSync(join(taskIndexPath(this.ctx, this.team), `c${k}.ndjson`), 'utf8').split('\n');
        if (lines[0] !== '{"v":1}') throw new BrokenIndex('bad chunk');
        for (let i = 1; i < lines.length; i++) {
          const text = lines[i]!;
          if (text === '') continue;
          const id = /^\["([1-9][0-9]*)"/.exec(text)?.[1];
          if (!id || chunkOf(id) !== k) throw new BrokenIndex('bad line');
          raw.set(id, text);
        }
      } catch (err) {
        if (required && compareTaskIds(String(k * CHUNK + 1n), this.upTo) <= 0) throw err instanceof BrokenIndex ? err : new BrokenIndex('missing chunk');
        raw.clear();
      }
    }
    this.chunks.set(k, raw);
    return raw;
  }

  private line(id: string): Line | undefined {
    if (this.parsed.has(id)) return this.parsed.get(id);
    let line: Line | undefined;
    try {
      const text = this.chunk(chunkOf(id), false).get(id);
      line = text === undefined ? undefined : fromRow(JSON.parse(text) as Row);
    } catch {
      line = undefined; // an unreadable line: re-read from the file
    }
    this.parsed.set(id, line);
    return line;
  }
}

/** The task directory's inode and birth time ('-' when it is missing). */
function dirIdentity(ctx: FsContext, team: string): string {
  try {
    const s = statSync(ctx.layout.taskDir(team));
    return `${s.ino}:${s.birthtimeMs}`;
  } catch {
    return '-';
  }
}

function replace(path: string, text: string): void {
  const tmp = `${path}.${process.pid}`;
  writeFileSync(tmp, text, { mode: FILE_MODE });
  renameSync(tmp, path);
}

/**
 * Runs `fn` on the list's index under the index's own lock, then saves it. The index lock is always
 * the innermost: taken inside any task or list lock, and no other lock is taken while it is held.
 */
export async function withTaskIndex<T>(ctx: FsContext, team: string, fn: (index: TaskIndex) => Promise<T> | T): Promise<T> {
  const path = taskIndexPath(ctx, team);
  await ensureDir(join(ctx.layout.root, 'mailroom', 'task-index'));
  writeFileSync(`${path}.anchor`, '', { flag: 'a', mode: FILE_MODE });
  return locked(ctx, `${path}.anchor`, async () => {
    const index = TaskIndex.load(ctx, team);
    let result: T;
    try {
      result = await fn(index);
    } catch (err) {
      if (!(err instanceof BrokenIndex)) throw err;
      index.reset(); // a chunk went missing: rebuilt from the task files
      result = await fn(index);
    }
    index.save();
    return result;
  });
}

/**
 * Records a task the store just wrote (under its lock), or forgets a deleted one. Never fails the
 * write it follows: an index it could not update is found stale (or missing) and re-read later.
 */
export async function noteTaskWritten(ctx: FsContext, team: string, id: string, task: Task | undefined): Promise<void> {
  try {
    await withTaskIndex(ctx, team, (index) => {
      if (index.missing) return index.keep(); // the next claim --next builds it
      const s = task && statTask(ctx, team, id);
      if (task && s) index.put({ ...lineOf(task, s), racy: true });
      else index.drop(id);
      // A task created right after the last one the index knows keeps it complete up to the new id.
      if (task && BigInt(id) === BigInt(index.upTo) + 1n) index.raiseUpTo(id);
    });
  } catch {
    // best effort (see above)
  }
}

/**
 * The ready tasks in id order, as the files are now: yields each task the index says is ready after
 * checking it and its blockers against their files (and every task below it the same way). A
 * missing index is first rebuilt from every task file. Past {@link TaskIndex.upTo} it lists the
 * directory (task files the index does not know: Claude Code created them) and goes on with those,
 * raising `upTo` as it checks them.
 */
export async function* readyTasks(index: TaskIndex, listIds: () => Promise<string[]>, read: (id: string) => Promise<Task | undefined>): AsyncGenerator<{ task: Task; board: Map<string, Task> }> {
  if (index.missing) {
    const ids = await listIds();
    for (const id of ids) await index.current(id, read);
    index.raiseUpTo(ids.at(-1) ?? '0');
    index.missing = false;
  }
  const upTo = index.upTo;
  const ready = async (id: string): Promise<{ task: Task; board: Map<string, Task> } | undefined> => {
    const task = await index.current(id, read);
    if (!task || task.status !== 'pending') return undefined;
    const board = new Map<string, Task>([[id, task]]);
    for (const b of task.blockedBy) {
      const blocker = await index.current(b, read);
      if (blocker) board.set(b, blocker);
    }
    return isReady(task, board) ? { task, board } : undefined;
  };
  for (const id of index.idsUpTo()) {
    const found = await ready(id);
    if (found) yield found;
  }
  // Catch up once: every file past upTo gets its line (Claude Code's creations are read, lines the
  // store wrote are checked by stat), then upTo is the highest id, and later claims walk the index.
  const rest = (await listIds()).filter((i) => compareTaskIds(i, upTo) > 0);
  for (const id of rest) await index.current(id, read);
  index.raiseUpTo(rest.at(-1) ?? upTo);
  for (const id of rest) {
    const found = await ready(id);
    if (found) yield found;
  }
}
