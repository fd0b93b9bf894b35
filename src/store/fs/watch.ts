/**
 * Watching a team's files with chokidar (loaded lazily: the send path never pays for it).
 * Events are hints, not data: a listener must re-read through the store. Lock directories,
 * temporary files and other non-state paths are filtered out.
 *
 * chokidar re-reads a directory at most once a second after a rename in it, so with atomic writers
 * (temp file + rename, as every mailroom write) it reports a burst of writes late or as one event.
 * A plain `fs.watch` of each directory runs alongside it for prompt hints (inotify on Linux,
 * FSEvents/kqueue on macOS); chokidar stays for what `fs.watch` misses (directories replaced).
 */
import { watch as fsWatch, type FSWatcher } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import type { StoreChange, WatchHandle } from '../store.js';
import { KEEP_NAME } from '../atomic-write.js';
import type { FsContext } from './context.js';
import { ensureDir } from './context.js';

/** Maps an absolute path to the store change it stands for, or undefined for noise. */
export function classify(ctx: FsContext, team: string, path: string): StoreChange | undefined {
  const { layout } = ctx;
  const name = basename(path);
  if (path === layout.configPath(team)) return { kind: 'config', team };
  if (dirname(path) === layout.inboxDir(team) && name.endsWith('.json')) return { kind: 'inbox', team, agent: name.slice(0, -5) };
  if (dirname(path) === layout.taskDir(team)) {
    const m = /^([1-9][0-9]*)\.json$/.exec(name);
    if (m) return { kind: 'task', team, id: m[1]! };
    if (name === '.highwatermark') return { kind: 'task', team };
  }
  return undefined;
}

/**
 * Watches config.json, the inboxes and the task list of `team`. Resolves once the watcher is
 * ready (initial scan done), so a change made after the promise resolves is always reported.
 */
export async function watchTeam(ctx: FsContext, team: string, listener: (change: StoreChange) => void): Promise<WatchHandle> {
  const { watch } = await import('chokidar');
  const { layout } = ctx;
  const dirs = [layout.teamDir(team), layout.inboxDir(team), layout.taskDir(team)];
  for (const d of dirs) await ensureDir(d);
  const watcher = watch(dirs, {
    ignoreInitial: true,
    depth: 0,
    ignored: (p: string) => isNoise(p),
  });
  const onPath = (p: string) => {
    const change = classify(ctx, team, p);
    if (change) listener(change);
  };
  watcher.on('add', onPath).on('change', onPath).on('unlink', onPath);
  await new Promise<void>((resolve, reject) => {
    watcher.once('ready', () => resolve());
    watcher.once('error', reject);
  });
  const direct = dirs.map((d) => watchDirectly(d, (p) => !isNoise(p) && onPath(p)));
  return {
    close: async () => {
      for (const w of direct) w?.close();
      await watcher.close();
    },
  };
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
  return name.endsWith('.lock') || p.includes(`.lock${sep}`) || /\.json\.\d+$/.test(name) || KEEP_NAME.test(name) || name === '.spool' || name.includes('.takeover') || name.includes('.stale-');
}

