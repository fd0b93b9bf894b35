/**
 * Watching a team on the filesystem with targeted `fs.watch` watches (inotify on Linux,
 * FSEvents/kqueue on macOS), one per directory that holds the team's files. Hints are not data:
 * a listener re-reads through the store. They name members and task ids, never file names: an
 * inbox file's stem is mapped back to the roster's member names (Claude Code's sanitiser maps
 * `Ann Lee.v2` to `Ann-Lee-v2.json`); a stem no member maps to is hinted under its own name.
 *
 * A watch on a directory follows its inode, so each directory's parent is watched too, for that
 * one name: when the directory is replaced (a team deleted and created again, a restore, a
 * directory moved aside by `doctor --fix`), its watch is opened again on the new directory and
 * every listener gets a hint for everything (it may have missed changes meanwhile). Nothing is
 * polled or rescanned, so an idle watcher costs no CPU (this replaced chokidar, whose directory
 * rescans and throttle timers cost idle agents CPU and kept a finished `team ask` alive:
 * docs/decisions.md "Targeted watches instead of chokidar").
 */
import { watch as fsWatch, type FSWatcher } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { KEEP_NAME } from './atomic-write.js';
import { pathPart } from './names.js';
import type { StoreHint, WatchHandle, WatchOptions } from '../team-store.js';
import { ensureDir, type FsContext } from './context.js';
import { memberNames } from './inboxes.js';

/** The paths of one team that a watch tells apart, computed once per watch. */
interface WatchedPaths {
  config: string;
  inboxDir: string;
  taskDir: string;
  journal: string;
  readerDir: string;
}

function watchedPaths(ctx: FsContext, team: string): WatchedPaths {
  const { layout } = ctx;
  return { config: layout.configPath(team), inboxDir: layout.inboxDir(team), taskDir: layout.taskDir(team), journal: layout.journalPath(team), readerDir: layout.readerDir(team) };
}

/** Maps a file path to the hint it stands for (with inbox stems still to map), or undefined for noise. */
function classify(paths: WatchedPaths, team: string, path: string): { hint: StoreHint } | { stem: string } | undefined {
  const name = basename(path);
  const dir = dirname(path);
  if (path === paths.config) return { hint: { kind: 'config', team } };
  if (dir === paths.inboxDir && name.endsWith('.json')) return { stem: name.slice(0, -5) };
  if (dir === paths.taskDir) {
    const m = /^([1-9][0-9]*)\.json$/.exec(name);
    if (m) return { hint: { kind: 'task', team, id: m[1]! } };
    if (name === '.highwatermark') return { hint: { kind: 'task', team } };
  }
  if (path === paths.journal) return { hint: { kind: 'events', team } };
  if (dir === paths.readerDir && name.endsWith('.json')) return { hint: { kind: 'claims', team } };
  return undefined;
}

/**
 * Watches config.json, the inboxes, the task list, the journal and the reader claims of `team`
 * (not the claims with `options.claims` false: the readers directory is left unwatched).
 * Resolves once every watch is open, so a change made after the promise resolves is reported.
 */
export async function watchTeam(ctx: FsContext, team: string, listener: (hint: StoreHint) => void, options: WatchOptions = {}): Promise<WatchHandle> {
  const { layout } = ctx;
  const claims = options.claims !== false;
  const dirs = [layout.teamDir(team), layout.inboxDir(team), layout.taskDir(team), layout.journalDir, ...(claims ? [layout.readerDir(team)] : [])];
  for (const d of dirs) await ensureDir(d);
  const roster = new Roster(ctx, team);
  await roster.refresh();
  const paths = watchedPaths(ctx, team);
  let closed = false;
  const onPath = (p: string) => {
    if (closed || isNoise(p)) return;
    const found = classify(paths, team, p);
    if (!found) return;
    if ('stem' in found) {
      for (const member of roster.membersOf(found.stem)) listener({ kind: 'inbox', team, member });
      return;
    }
    if (found.hint.kind === 'config') void roster.refresh().finally(() => listener(found.hint));
    else listener(found.hint);
  };
  const everything = () => {
    void roster.refresh().finally(() => {
      if (closed) return;
      for (const kind of ['config', 'task', 'events', ...(claims ? (['claims'] as const) : [])] as const) listener({ kind, team });
      for (const member of roster.names()) listener({ kind: 'inbox', team, member });
    });
  };
  const set = new DirWatches(onPath, everything);
  for (const d of dirs) set.add(d);
  return {
    close: () => {
      closed = true;
      set.close();
      return Promise.resolve();
    },
  };
}

/**
 * `fs.watch` of a set of directories, each re-opened when its parent says the name was replaced
 * (see the module comment); `onReplaced` runs after a re-open.
 */
class DirWatches {
  private readonly own = new Map<string, FSWatcher | undefined>();
  private readonly parents = new Map<string, { watcher: FSWatcher | undefined; children: Set<string> }>();

  constructor(
    private readonly onPath: (path: string) => void,
    private readonly onReplaced: () => void,
  ) {}

  add(dir: string): void {
    if (this.own.has(dir)) return;
    this.own.set(dir, watchDirectly(dir, this.onPath));
    const parent = dirname(dir);
    let entry = this.parents.get(parent);
    if (!entry) {
      const children = new Set<string>();
      entry = { children, watcher: watchDirectly(parent, (p) => children.has(p) && this.reopen(p)) };
      this.parents.set(parent, entry);
    }
    entry.children.add(dir);
  }

  close(): void {
    for (const w of this.own.values()) w?.close();
    for (const p of this.parents.values()) p.watcher?.close();
    this.own.clear();
    this.parents.clear();
  }

  private reopen(dir: string): void {
    if (!this.own.has(dir)) return;
    this.own.get(dir)?.close();
    this.own.set(dir, watchDirectly(dir, this.onPath));
    this.onReplaced();
  }
}

/** The roster's names by inbox stem, re-read on every config change. */
class Roster {
  private byStem = new Map<string, string[]>();

  constructor(
    private readonly ctx: FsContext,
    private readonly team: string,
  ) {}

  async refresh(): Promise<void> {
    const map = new Map<string, string[]>();
    for (const name of await memberNames(this.ctx, this.team).catch(() => [])) {
      const stem = pathPart(name);
      map.set(stem, [...(map.get(stem) ?? []), name]);
    }
    this.byStem = map;
  }

  /** Every member name of the roster. */
  names(): string[] {
    return [...this.byStem.values()].flat();
  }

  /** The members whose inbox file is `<stem>.json` (the stem itself when none is). */
  membersOf(stem: string): string[] {
    return this.byStem.get(stem) ?? [stem];
  }
}

/** `fs.watch` of one directory, reporting full paths; undefined when it cannot be watched (missing: its parent's watch re-opens it when it appears). */
function watchDirectly(dir: string, onPath: (path: string) => void): FSWatcher | undefined {
  try {
    const w = fsWatch(dir, (_event, name) => {
      if (name) onPath(join(dir, name.toString()));
    });
    w.on('error', () => w.close());
    return w;
  } catch {
    return undefined;
  }
}

function isNoise(p: string): boolean {
  const name = basename(p);
  return (
    name.endsWith('.lock') ||
    p.includes(`.lock${sep}`) ||
    /\.json\.\d+$/.test(name) ||
    /\.ndjson\.\d+$/.test(name) ||
    KEEP_NAME.test(name) ||
    name === '.spool' ||
    p.includes(`${sep}.spool${sep}`) ||
    name.includes('.takeover') ||
    name.includes('.stale-')
  );
}
