/**
 * Watching a team on the filesystem with chokidar (loaded lazily: the send path never pays for it)
 * plus a plain `fs.watch` per directory for prompt hints. Hints are not data: a listener re-reads
 * through the store. They name members and task ids, never file names: an inbox file's stem is
 * mapped back to the roster's member names (Claude Code's sanitiser maps `Ann Lee.v2` to
 * `Ann-Lee-v2.json`); a stem no member maps to is hinted under its own name.
 *
 * chokidar re-reads a directory at most once a second after a rename in it, so with atomic writers
 * (temp file + rename, as every mailroom write) it reports a burst of writes late or as one event.
 * `fs.watch` (inotify on Linux, FSEvents/kqueue on macOS) runs alongside it for prompt hints;
 * chokidar stays for what `fs.watch` misses (directories replaced). The journal and reader-claim
 * directories are watched with `fs.watch` only (`events` and `claims` hints).
 */
import { watch as fsWatch, type FSWatcher } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { KEEP_NAME } from './atomic-write.js';
import { pathPart } from './names.js';
import type { StoreHint, WatchHandle } from '../team-store.js';
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
 * Watches config.json, the inboxes, the task list, the journal and the reader claims of `team`.
 * Resolves once the watcher is ready (initial scan done), so a change made after the promise
 * resolves is always reported.
 */
export async function watchTeam(ctx: FsContext, team: string, listener: (hint: StoreHint) => void): Promise<WatchHandle> {
  const { watch } = await import('chokidar');
  const { layout } = ctx;
  const dirs = [layout.teamDir(team), layout.inboxDir(team), layout.taskDir(team)];
  const quiet = [layout.journalDir, layout.readerDir(team)];
  for (const d of [...dirs, ...quiet]) await ensureDir(d);
  const roster = new Roster(ctx, team);
  await roster.refresh();
  const paths = watchedPaths(ctx, team);
  const onPath = (p: string) => {
    const found = classify(paths, team, p);
    if (!found) return;
    if ('stem' in found) {
      for (const member of roster.membersOf(found.stem)) listener({ kind: 'inbox', team, member });
      return;
    }
    if (found.hint.kind === 'config') void roster.refresh().finally(() => listener(found.hint));
    else listener(found.hint);
  };
  const watcher = watch(dirs, { ignoreInitial: true, depth: 0, ignored: (p: string) => isNoise(p) });
  watcher.on('add', onPath).on('change', onPath).on('unlink', onPath);
  await new Promise<void>((resolve, reject) => {
    watcher.once('ready', () => resolve());
    watcher.once('error', reject);
  }).catch(async (err: unknown) => {
    // A watch that failed to start (its directory removed meanwhile) must not stay open: it would keep the process alive.
    await watcher.close();
    throw err;
  });
  const direct = [...dirs, ...quiet].map((d) => watchDirectly(d, (p) => !isNoise(p) && onPath(p)));
  return {
    close: async () => {
      for (const w of direct) w?.close();
      await watcher.close();
    },
  };
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

  /** The members whose inbox file is `<stem>.json` (the stem itself when none is). */
  membersOf(stem: string): string[] {
    return this.byStem.get(stem) ?? [stem];
  }
}

/** `fs.watch` of one directory, reporting full paths; undefined when it cannot be watched (chokidar still does). */
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
