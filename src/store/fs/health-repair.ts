/**
 * Repairing what {@link scanHealth} found (`mailroom doctor --fix`). Every repair re-checks its
 * condition first, under the lock that guards the file where there is one, so a file that healed
 * meanwhile, or a lock that came back to life, is left alone. Nothing is overwritten: broken state
 * files are renamed to `<file>.corrupt-<stamp>` beside themselves; a broken inbox is kept there whole
 * and its complete entries are written back into the inbox.
 */
import { link, lstat, readFile, rename, rm, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isErrno } from '../../errors.js';
import { stampNow, type StoreIssue, type StoreRepair } from '../health.js';
import { readJsonFile, writeTextFile } from './json-file.js';
import { staleTimeOf, withLock, type HeldLock } from './lock.js';
import { dirId } from './lock-dir.js';
import { STALE_INFIX, clearIfStale, guardedFiles, isStale, takeOverIfStale } from './lock-takeover.js';
import { lockDirFor } from './paths.js';
import type { FsContext } from './context.js';
import { checkStateFile } from './health-files.js';
import { salvageInboxText } from './inbox-salvage.js';
import { readRaw, writeInboxArray } from './inboxes.js';
import { KEEP_NAME } from './atomic-write.js';
import { stateFileKind } from './health-files.js';
import { mergeInbox } from './recover-inbox.js';
import { readSmallFile } from './small-file.js';
import { tempIssue } from './health-scan.js';
import { moveTaskListAside } from './health-task-lists.js';
import { rebuildConfig } from './team-rebuild.js';

/** Repairs one issue; never throws for a condition that changed meanwhile (it reports it instead). */
export async function repairHealth(ctx: FsContext, issue: StoreIssue): Promise<StoreRepair> {
  const staleMs = staleTimeOf(ctx.lock);
  switch (issue.kind) {
    case 'corrupt-file':
      if (issue.recordKind === 'highwatermark') return withListLock(ctx, issue.location, (list) => moveAside(issue, list)); // the list lock guards it
      if (issue.recordKind === 'config') return rebuildConfig(ctx, issue.location); // never just hidden: the team's mail is still there
      if (issue.recordKind === 'settings') return kept(SETTINGS_KEPT);
      if (issue.recordKind === 'inbox') return withLock(issue.location, lockDirFor(issue.location), ctx.lock, (lock) => salvageInbox(issue, lock));
      return issue.recordKind === 'task' ? withListLock(ctx, issue.location, (list) => quarantine(ctx, issue.location, issue, list)) : quarantine(ctx, issue.location, issue);
    case 'temp-file':
      return removeTemp(ctx, issue.location, issue.target, staleMs);
    case 'stale-lock':
      return removeStaleLock(issue.location, staleMs);
    case 'orphan-task-list':
      return moveTaskListAside(ctx, issue);
    case 'missing-config':
      return rebuildConfig(ctx, issue.location);
    case 'name-too-long':
      return kept(`not repaired automatically: rename ${shortName(issue.member)} in ${issue.location} to a name of at most ${issue.limit} bytes`);
    case 'inbox-collision':
      return kept(`not repaired automatically: rename all but one of ${issue.members.join(', ')} in the team's config.json`);
    case 'lock-leftover':
      if (basename(issue.location).includes(STALE_INFIX)) {
        await rm(issue.location, { recursive: true, force: true });
        return removed('removed');
      }
      if (!(await dirId(issue.location))) return removed('already gone');
      return (await clearIfStale(issue.location, staleMs)) ? removed('removed') : kept('it is in use again');
    case 'server-setting':
      return kept('the filesystem store has no server settings');
  }
}

/** Takes a stale lock away under the takeover guard (a stale guard in the way is cleared first). */
async function removeStaleLock(path: string, staleMs: number): Promise<StoreRepair> {
  for (let attempt = 0; attempt < 3; attempt++) {
    if ((await takeOverIfStale(path, staleMs, guardedFiles(path.slice(0, -'.lock'.length)))) !== 'busy') return removed('removed');
    const id = await dirId(path);
    if (!id) return removed('already gone');
    if (!isStale(id, staleMs)) break;
  }
  return kept('its holder refreshed it: the lock is live again');
}

/** Why a corrupt settings file is not moved aside: without it the team would run on the defaults. */
export const SETTINGS_KEPT = "not repaired automatically: moving it aside would drop the team's policy and signing (a signed team would accept unsigned mail, every rule would open). Restore it by hand — from a backup, or by fixing its JSON — then retry";

type CorruptFile = Extract<StoreIssue, { kind: 'corrupt-file' }>;

async function quarantine(ctx: FsContext, path: string, issue: CorruptFile, list?: HeldLock): Promise<StoreRepair> {
  const guarded = guardOf(ctx, path, issue.recordKind);
  return withLock(guarded, lockDirFor(guarded), ctx.lock, (lock) => moveAside(issue, lock, list && (() => raiseHighWatermark(path, list))));
}

/**
 * Renames the corrupt file to `<file>.corrupt-<stamp>` while `lock` (the lock guarding it) is
 * held, after `before` (a task's id is kept used); a file that reads fine now is left alone.
 */
async function moveAside(issue: CorruptFile, lock: HeldLock, before?: () => Promise<void>): Promise<StoreRepair> {
  if ((await checkStateFile(issue.location, issue.recordKind)) === undefined) return kept('it reads fine now (it was being rewritten): left as it is', true);
  await before?.();
  const movedTo = `${issue.location}.corrupt-${stampNow()}`;
  await lock.assertHeld(`quarantining ${issue.location}`);
  await rename(issue.location, movedTo);
  return { done: true, note: `moved aside to ${basename(movedTo)}`, bytesFreed: 0, movedTo };
}

/**
 * A corrupt inbox keeps what can be kept (issue 9 item 4): under the inbox lock, the original file
 * is kept whole as `<file>.corrupt-<stamp>` (a hard link, so the inbox path never goes missing) and
 * the inbox is rewritten with its complete, valid entries ({@link salvageInboxText}); the repair
 * says how many entries were kept and how many bytes were set aside.
 */
async function salvageInbox(issue: CorruptFile, lock: HeldLock): Promise<StoreRepair> {
  if ((await checkStateFile(issue.location, issue.recordKind)) === undefined) return kept('it reads fine now (it was being rewritten): left as it is', true);
  const text = await readFile(issue.location, 'utf8');
  const { entries, setAsideBytes } = salvageInboxText(text);
  const movedTo = `${issue.location}.corrupt-${stampNow()}`;
  await lock.assertHeld(`salvaging ${issue.location}`);
  await link(issue.location, movedTo);
  await writeInboxArray(issue.location, entries, lock, undefined);
  const note = `kept ${entries.length} complete entr${entries.length === 1 ? 'y' : 'ies'} in the inbox; ${setAsideBytes} byte${setAsideBytes === 1 ? '' : 's'} that did not parse set aside (the original file is kept as ${basename(movedTo)})`;
  return { done: true, note, bytesFreed: 0, movedTo, kept: entries.length, setAsideBytes };
}

/** Runs `fn` under the task list lock of the task file at `taskPath`. */
function withListLock<T>(ctx: FsContext, taskPath: string, fn: (list: HeldLock) => Promise<T>): Promise<T> {
  const anchor = join(dirname(taskPath), '.lock');
  return withLock(anchor, lockDirFor(anchor), ctx.lock, fn);
}

/** Keeps the id of a quarantined task used: `.highwatermark` is raised to it (ids are never reused). */
async function raiseHighWatermark(taskPath: string, list: HeldLock): Promise<void> {
  const id = basename(taskPath, '.json');
  const path = join(dirname(taskPath), '.highwatermark');
  const current = (await readFile(path, 'utf8').catch(() => '0')).trim();
  if (!/^[0-9]+$/.test(current) || BigInt(current) < BigInt(id)) await writeTextFile(path, id, list);
}

async function removeTemp(ctx: FsContext, path: string, target: string, staleMs: number): Promise<StoreRepair> {
  const now = await tempIssue(path, target, staleMs);
  if (!now || now.kind !== 'temp-file') return removed('already gone');
  if (!now.removable) return kept("kept: its file's lock is held and it is recent, so a write may be in progress");
  if (KEEP_NAME.test(basename(path)) && stateFileKind(ctx, target) === 'inbox') return withLock(target, lockDirFor(target), ctx.lock, (lock) => mergeKeptInbox(ctx, path, target, now.bytes, lock));
  await unlink(path).catch((err: unknown) => {
    if (!isErrno(err, 'ENOENT')) throw err;
  });
  return { done: true, note: `removed (${now.bytes} bytes)`, bytesFreed: now.bytes };
}

/**
 * A keep link of an inbox (locked-write.ts) left by a writer killed between its rename and its lock
 * check may be the only copy of what that rename replaced: another holder's write, landed after the
 * killed writer's lock was taken over (break test, session 18). Under the inbox lock, its entries that
 * are in neither the inbox nor the inbox's archive go back in, each after the entry it followed
 * (recover-inbox.ts, without a base: an entry Claude Code removed after delivering it since may come
 * back; none is lost); then the link is removed. A keep that does not parse is left in place.
 */
async function mergeKeptInbox(ctx: FsContext, path: string, target: string, bytes: number, lock: HeldLock): Promise<StoreRepair> {
  const kind = await lstat(path).catch(() => undefined);
  if (kind === undefined) return removed('already gone');
  if (!kind.isFile()) {
    // Not a keep link mailroom made (a FIFO would block the read): nothing in it to merge.
    await rm(path, { recursive: true, force: true });
    return removed('removed (not a regular file)');
  }
  const keepText = await readFile(path, 'utf8').catch((err: unknown) => (isErrno(err, 'ENOENT') ? undefined : Promise.reject(err)));
  if (keepText === undefined) return removed('already gone');
  let current: Awaited<ReturnType<typeof readRaw>>;
  try {
    current = await readRaw(target);
  } catch {
    return kept(`kept: ${target} does not parse; once it is salvaged (this run's corrupt-file repair), run \`mailroom doctor --fix\` again to merge ${path} back`);
  }
  const archived = await readArchivedLines(ctx, target);
  let merged: unknown[];
  try {
    const result = mergeInbox({ base: undefined, mine: JSON.stringify(archived), replaced: keepText, current: current?.text ?? '[]' });
    merged = JSON.parse(result.text) as unknown[];
  } catch {
    return kept(`kept: ${path} is what a killed writer replaced, and it or the inbox does not parse as a JSON array; compare it with ${target}, merge by hand, then delete it`);
  }
  const back = merged.length - (current?.raw.length ?? 0);
  if (back > 0) await writeInboxArray(target, merged, lock, current?.text);
  await unlink(path).catch((err: unknown) => {
    if (!isErrno(err, 'ENOENT')) throw err;
  });
  return { done: true, note: back > 0 ? `merged ${back} ${back === 1 ? 'entry' : 'entries'} back into ${target} (only this copy had them), then removed it` : `removed (${bytes} bytes; every entry in it is in the inbox or its archive)`, bytesFreed: bytes };
}

/**
 * The entries of the archive of inbox `target` (Layout.inboxArchivePath: the team's name from its
 * config.json, the member's file name as the inbox's), as parsed lines; none when there is none or
 * the config cannot be read (then every entry the keep alone has goes back: nothing is lost).
 */
async function readArchivedLines(ctx: FsContext, target: string): Promise<unknown[]> {
  // Read non-blocking (a FIFO there is FILE_CORRUPT, not a wait).
  const read = await readJsonFile(join(dirname(dirname(target)), 'config.json'), { attempts: 1 }).catch(() => undefined);
  const config = read?.state === 'ok' ? (read.value as { name?: unknown } | null) : undefined;
  if (typeof config?.name !== 'string') return [];
  const archive = join(ctx.layout.inboxArchiveDir(config.name), basename(target).replace(/\.json$/, '.ndjson'));
  // Judged on the file opened, non-blocking (a FIFO put there is not waited on); no size limit.
  const file = readSmallFile(archive, Number.MAX_SAFE_INTEGER);
  if (file.kind !== 'ok') return [];
  const out: unknown[] = [];
  for (const line of file.text.split('\n')) {
    if (line === '') continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      // a torn last line: not an entry
    }
  }
  return out;
}

function removed(note: string): StoreRepair {
  return { done: true, note, bytesFreed: 0 };
}

function kept(note: string, done = false): StoreRepair {
  return { done, note, bytesFreed: 0 };
}

/** The file whose lock guards `path` (its own: a lease sidecar has its own lock too). */
export function guardOf(_ctx: FsContext, path: string, _kind: CorruptFile['recordKind']): string {
  return path;
}

function shortName(name: string): string {
  return name.length > 40 ? `"${name.slice(0, 40)}…"` : `"${name}"`;
}
