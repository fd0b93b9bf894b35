/**
 * Scanning the filesystem store for broken files (`mailroom doctor`): unparseable state files,
 * temporary files left by killed writers (and keep links of interrupted writes), stale locks and
 * takeover leftovers; reads only. The team store scans team data — `teams/<dir>/` and its
 * `inboxes/`, `tasks/<list>/` (and task lists that belong to no team, health-task-lists.ts), and
 * mailroom's lease, reader-claim, idempotency and member records; the host store scans this
 * machine's own records — `teams/<dir>/processes/` and `mailroom/commands/<team>/`. Claude Code's
 * `teams/*.deleted-<uuid>` tombstones (a team it is removing) are skipped. Each issue's `location`
 * is its path.
 */
import { nameIssues } from './health-names.js';
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { KEEP_NAME, TEMP_NAME } from './atomic-write.js';
import { ageMs, dirId } from './lock-dir.js';
import { staleTimeOf } from './lock.js';
import { tombstoneOf } from './names.js';
import { STALE_INFIX, TAKEOVER_SUFFIX, anyLockHeld, isStale } from './lock-takeover.js';
import type { StoreIssue } from '../health.js';
import type { FsContext } from './context.js';
import { checkStateFile, stateFileKind } from './health-files.js';
import { orphanTaskLists } from './health-task-lists.js';
import { missingConfigIssues } from './team-rebuild.js';

/** A temporary file this old is removable even while its file's lock is held (ms). */
export const OLD_TEMP_MS = 10 * 60_000;
/** A temporary file younger than this is never removed: its writer may be mid-write (ms). */
export const MIN_TEMP_AGE_MS = 2_000;

/** Directories under `teams/<dir>/` that hold this machine's records (the host store's), not team data. */
const HOST_SUBDIRS = new Set(['processes', 'logs']);

/** Every team-data {@link StoreIssue} under the store root, in path order. */
export async function scanTeamHealth(ctx: FsContext): Promise<StoreIssue[]> {
  const issues: StoreIssue[] = [];
  for (const dir of await subdirs(ctx.layout.teamsDir)) {
    if (tombstoneOf(basename(dir)) !== undefined) continue; // Claude Code is removing it: not ours to repair
    await scanDir(ctx, dir, issues);
    for (const sub of await subdirs(dir)) if (!HOST_SUBDIRS.has(basename(sub))) await scanDir(ctx, sub, issues);
  }
  for (const dir of await subdirs(ctx.layout.tasksRoot)) await scanDir(ctx, dir, issues);
  for (const parent of ['leases', 'readers', 'idempotency', 'members']) {
    for (const dir of await subdirs(join(ctx.layout.root, 'mailroom', parent))) await scanDir(ctx, dir, issues);
  }
  issues.push(...(await orphanTaskLists(ctx)));
  issues.push(...(await nameIssues(ctx)));
  issues.push(...(await missingConfigIssues(ctx)));
  return sorted(issues);
}

/** Every {@link StoreIssue} in this machine's records (pid and command records), in path order. */
export async function scanHostHealth(ctx: FsContext): Promise<StoreIssue[]> {
  const issues: StoreIssue[] = [];
  for (const dir of await subdirs(ctx.layout.teamsDir)) {
    for (const sub of await subdirs(dir)) if (basename(sub) === 'processes') await scanDir(ctx, sub, issues);
  }
  for (const dir of await subdirs(ctx.layout.commandsDir)) await scanDir(ctx, dir, issues);
  return sorted(issues);
}

function sorted(issues: StoreIssue[]): StoreIssue[] {
  return issues.sort((a, b) => (a.location < b.location ? -1 : a.location > b.location ? 1 : 0)); // by code unit: the same order in every locale
}

async function subdirs(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isDirectory() && !isLockish(e.name)).map((e) => join(dir, e.name));
}

function isLockish(name: string): boolean {
  return name.endsWith('.lock') || name.endsWith(TAKEOVER_SUFFIX) || name.includes(STALE_INFIX);
}

async function scanDir(ctx: FsContext, dir: string, issues: StoreIssue[]): Promise<void> {
  const staleMs = staleTimeOf(ctx.lock);
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const path = join(dir, entry.name);
    const stateDir = entry.isDirectory() && stateFileKind(ctx, path) !== undefined; // a directory where a state file belongs
    const issue = entry.isDirectory() && !stateDir ? await lockIssue(path, staleMs) : await fileIssue(ctx, path, staleMs);
    if (issue) issues.push(issue);
  }
}

/** A stale lock directory, an old takeover guard, or a renamed-aside lock. */
export async function lockIssue(path: string, staleMs: number): Promise<StoreIssue | undefined> {
  const name = basename(path);
  if (name.includes(STALE_INFIX)) {
    const s = await stat(path).catch(() => undefined);
    const age = s ? Date.now() - s.ctimeMs : 0;
    return age > MIN_TEMP_AGE_MS ? { kind: 'lock-leftover', location: path, ageMs: age } : undefined;
  }
  if (!name.endsWith('.lock') && !name.endsWith(TAKEOVER_SUFFIX)) return undefined;
  const id = await dirId(path);
  if (!id || !isStale(id, staleMs)) return undefined;
  return { kind: name.endsWith('.lock') ? 'stale-lock' : 'lock-leftover', location: path, ageMs: ageMs(id) };
}

async function fileIssue(ctx: FsContext, path: string, staleMs: number): Promise<StoreIssue | undefined> {
  const temp = TEMP_NAME.exec(basename(path)) ?? KEEP_NAME.exec(basename(path)); // a keep link (locked-write.ts) is a leftover of the same kind
  if (temp && isStateName(temp[1]!)) return tempIssue(path, join(dirname(path), temp[1]!), staleMs);
  const kind = stateFileKind(ctx, path);
  if (!kind) return undefined;
  const detail = await checkStateFile(path, kind);
  return detail === undefined ? undefined : { kind: 'corrupt-file', location: path, recordKind: kind, detail };
}

function isStateName(name: string): boolean {
  return name.endsWith('.json') || name === '.highwatermark';
}

/** Describes a temporary file: size, age, whether a lock guarding its target is held. */
export async function tempIssue(path: string, target: string, staleMs: number): Promise<StoreIssue | undefined> {
  const s = await stat(path).catch(() => undefined);
  if (!s) return undefined;
  const age = Date.now() - s.mtimeMs;
  const lockHeld = await anyLockHeld(guardingLocks(target), staleMs);
  const removable = age > OLD_TEMP_MS || (!lockHeld && age > MIN_TEMP_AGE_MS);
  return { kind: 'temp-file', location: path, target, bytes: s.size, ageMs: age, lockHeld, removable };
}

/** Locks under which `target` is written: its own, and for task-list files the list lock. */
function guardingLocks(target: string): string[] {
  const locks = [`${target}.lock`];
  if (/^([1-9][0-9]*\.json|\.highwatermark)$/.test(basename(target))) locks.push(join(dirname(target), '.lock.lock'));
  return locks;
}

