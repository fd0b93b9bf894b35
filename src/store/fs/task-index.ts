/**
 * The index of a task list (issue 24 item 4): `<root>/mailroom/task-index/<list>.ndjson`, mailroom's
 * own file outside Claude Code's `tasks/` (which stays exactly what Claude Code writes and reads).
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
import { readFileSync, renameSync, statSync, writeFileSync, type BigIntStats } from 'node:fs';
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

/** `<root>/mailroom/task-index/<list>.ndjson`. */
export function taskIndexPath(ctx: FsContext, team: string): string {
  return join(ctx.layout.root, 'mailroom', 'task-index', `${basename(ctx.layout.taskDir(team))}.ndjson`);
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

/** The index of one list, read lazily: a line is parsed when first asked for. */
export class TaskIndex {
  private readonly parsed = new Map<string, Line | undefined>();
  private changed = false;

  private constructor(
    private readonly ctx: FsContext,
    private readonly team: string,
    /** Raw lines by id (unparsed), in id order. */
    private readonly raw: Map<string, string>,
  ) {}

  /** Reads the index; an empty one (to be filled) when it is missing or unreadable. */
  static load(ctx: FsContext, team: string): TaskIndex {
    const raw = new Map<string, string>();
    let upTo = '0';
    try {
      const lines = readFileSync(taskIndexPath(ctx, team), 'utf8').split('\n');
      const header = /^\{"v":1,"upTo":"(0|[1-9][0-9]*)"\}$/.exec(lines[0] ?? '');
      if (!header) throw new Error('not an index');
      upTo = header[1]!;
      for (let i = 1; i < lines.length; i++) {
        const text = lines[i]!;
        if (text === '') continue;
        const id = /^\["([1-9][0-9]*)"/.exec(text)?.[1];
        if (!id) throw new Error('bad line');
        raw.set(id, text);
      }
    } catch {
      const index = new TaskIndex(ctx, team, new Map());
      index.changed = true;
      index.missing = true;
      return index;
    }
    const index = new TaskIndex(ctx, team, raw);
    index.upTo = upTo;
    return index;
  }

  /**
   * Every task file with an id up to this one has its line (as of the walk or rebuild that got this
   * far); lines above it may exist (tasks the store created), but other files may too.
   */
  upTo = '0';

  /** True when there was no usable index file: the caller fills it from the task files. */
  missing = false;

  /** The ids the index knows, in id order. */
  ids(): string[] {
    return [...this.raw.keys()].sort(compareTaskIds);
  }

  /** Raises {@link upTo} to `id` (every file up to it now has its line). */
  raiseUpTo(id: string): void {
    if (compareTaskIds(id, this.upTo) > 0) {
      this.upTo = id;
      this.changed = true;
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
    if (s && known && !known.racy && known.stat === statKey(s)) {
      this.verified.add(id);
      return known.task;
    }
    this.verified.add(id);
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
    this.parsed.set(line.task.id, line);
    this.raw.set(line.task.id, JSON.stringify(rowOf(line)));
    this.changed = true;
  }

  /** Forgets task `id` (its file is gone). */
  drop(id: string): void {
    this.parsed.set(id, undefined);
    this.raw.delete(id);
    this.changed = true;
  }

  /** Leaves the index file as it is (nothing to save). */
  keep(): void {
    this.changed = false;
  }

  /** Writes the index when something changed (temp file + rename; a cache: no fsync). */
  save(): void {
    if (!this.changed) return;
    const text = [`{"v":1,"upTo":"${this.upTo}"}`, ...this.ids().map((id) => this.raw.get(id)!)].join('\n') + '\n';
    const path = taskIndexPath(this.ctx, this.team);
    const tmp = `${path}.${process.pid}`;
    writeFileSync(tmp, text, { mode: FILE_MODE });
    renameSync(tmp, path);
    this.changed = false;
  }

  private line(id: string): Line | undefined {
    if (this.parsed.has(id)) return this.parsed.get(id);
    const text = this.raw.get(id);
    let line: Line | undefined;
    try {
      line = text === undefined ? undefined : fromRow(JSON.parse(text) as Row);
    } catch {
      line = undefined; // an unreadable line: re-read from the file
    }
    this.parsed.set(id, line);
    return line;
  }
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
    const result = await fn(index);
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
  for (const id of index.ids()) {
    if (compareTaskIds(id, upTo) > 0) break;
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
