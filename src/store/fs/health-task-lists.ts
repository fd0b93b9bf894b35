/**
 * Task lists without a team (`mailroom doctor`): Claude Code 2.1.332 removes a session's
 * `teams/<team>` when the session ends and leaves `tasks/<team>/` behind (its README; 2.1.109 and
 * `mailroom team delete` remove both). Such a list is reported, and repaired by moving it —
 * never deleting it — to `<root>/mailroom/leftovers/tasks/<list>-<stamp>/`, outside the directories
 * Claude Code reads.
 *
 * Left alone: the list of any team in `teams/` (a tombstone's too: the client is removing that
 * team right now), a list named like a Claude Code session id (a UUID: the task list of a session
 * without a team, reference §1), one whose lock is held, and one changed within the last stale time
 * (its team may be being created).
 */
import { readdir, rename, rmdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { isErrno } from '../../errors.js';
import { stampNow, type StoreIssue, type StoreRepair } from '../health.js';
import { staleTimeOf, withLock } from './lock.js';
import { lockDirFor } from './paths.js';
import { ensureDir, type FsContext } from './context.js';
import { teamTaskLists } from './teams.js';
import { anyLockHeld } from './lock-takeover.js';

type OrphanTaskList = Extract<StoreIssue, { kind: 'orphan-task-list' }>;

/** A Claude Code session id: the task list of a session without a team. */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TASK_FILE = /^[1-9][0-9]*\.json$/;

/** Every task list under `tasks/` that belongs to no team (see the module comment). */
export async function orphanTaskLists(ctx: FsContext): Promise<OrphanTaskList[]> {
  const entries = await readdir(ctx.layout.tasksRoot, { withFileTypes: true }).catch(() => []);
  const candidates = entries.filter((e) => e.isDirectory() && !SESSION_ID.test(e.name));
  if (candidates.length === 0) return [];
  const owned = await teamTaskLists(ctx);
  const out: OrphanTaskList[] = [];
  for (const e of candidates) {
    if (owned.has(e.name)) continue;
    const issue = await describeList(ctx, join(ctx.layout.tasksRoot, e.name));
    if (issue) out.push(issue);
  }
  return out;
}

/** The issue for the list at `path`, or undefined when it is in use (lock held, changed lately) or gone. */
async function describeList(ctx: FsContext, path: string): Promise<OrphanTaskList | undefined> {
  const staleMs = staleTimeOf(ctx.lock);
  const names = await readdir(path).catch(() => undefined);
  if (!names) return undefined;
  const locks = names.filter((n) => n.endsWith('.lock')).map((n) => join(path, n));
  if (await anyLockHeld(locks, staleMs)) return undefined;
  let newest = (await stat(path).catch(() => undefined))?.mtimeMs ?? 0;
  for (const n of names) newest = Math.max(newest, (await stat(join(path, n)).catch(() => undefined))?.mtimeMs ?? 0);
  const ageMs = Date.now() - newest;
  if (ageMs < staleMs) return undefined;
  return { kind: 'orphan-task-list', location: path, list: basename(path), tasks: names.filter((n) => TASK_FILE.test(n)).length, ageMs };
}

/**
 * Moves the list to `<root>/mailroom/leftovers/tasks/<list>-<stamp>/` under its list lock, after
 * checking again that no team has it and nobody uses it. Never deletes a task.
 */
export async function moveTaskListAside(ctx: FsContext, issue: OrphanTaskList): Promise<StoreRepair> {
  const again = await describeList(ctx, issue.location);
  if (!again) return { done: true, note: 'left alone: it is gone or in use again', bytesFreed: 0 };
  const anchor = join(issue.location, '.lock');
  const hasAnchor = await stat(anchor).then(
    () => true,
    () => false,
  );
  const dest = join(ctx.layout.root, 'mailroom', 'leftovers', 'tasks', `${issue.list}-${stampNow()}`);
  await ensureDir(join(dest, '..'));
  const move = async (): Promise<StoreRepair> => {
    if ((await teamTaskLists(ctx)).has(issue.list)) return { done: true, note: 'left alone: a team of that name exists now', bytesFreed: 0 };
    try {
      await rename(issue.location, dest);
    } catch (err) {
      if (isErrno(err, 'ENOENT')) return { done: true, note: 'already gone', bytesFreed: 0 };
      throw err;
    }
    await rmdir(join(dest, '.lock.lock')).catch(() => undefined); // the list lock came along
    return { done: true, note: `moved aside to ${dest}`, bytesFreed: 0, movedTo: dest };
  };
  // The list lock (its `.lock` anchor must exist to be locked) keeps Claude Code and mailroom writers out meanwhile.
  return hasAnchor ? withLock(anchor, lockDirFor(anchor), ctx.lock, move) : move();
}
