/**
 * Team configs on disk: `teams/<teamDir>/config.json`, locked with `config.json.lock`
 * (Claude Code 2.1.109+, reference §2 and §6).
 */
import { readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MailroomError, isErrno } from '../../errors.js';
import { TeamConfigSchema, type TeamConfig } from '../../protocol/config.js';
import { corruptFile, formatJson, readJsonFile, writeJsonFile, FILE_MODE } from '../json-file.js';
import { withLock } from '../lock.js';
import { taskListId, tombstoneOf, teamDirName } from '../names.js';
import { lockDirFor } from '../paths.js';
import type { TeamRef, TeamRemoval } from '../store.js';
import { ensureDir, type FsContext } from './context.js';
import { mergeObject } from './recover-object.js';

/** Names under `teams/` (empty when it does not exist). */
async function teamDirs(ctx: FsContext): Promise<string[]> {
  try {
    return (await readdir(ctx.layout.teamsDir)).sort();
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return [];
    throw err;
  }
}

/**
 * Lists every directory under `teams/` whose config.json parses as a team config, except Claude
 * Code 2.1.332's `*.deleted-<uuid>` tombstones of teams it is removing ({@link tombstoneOf}).
 */
export async function listTeams(ctx: FsContext): Promise<TeamRef[]> {
  const teams: TeamRef[] = [];
  for (const dir of await teamDirs(ctx)) {
    if (tombstoneOf(dir) !== undefined) continue;
    const config = await readConfigAt(join(ctx.layout.teamsDir, dir, 'config.json')).catch((err: unknown) => {
      ctx.lock.onWarning?.(`mailroom: skipping team directory ${dir}: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    });
    if (config) teams.push({ name: config.name, location: join(ctx.layout.teamsDir, dir) });
  }
  return teams;
}

/**
 * Whether Claude Code is removing `team`: a tombstone `teams/<teamDir>.deleted-<uuid>` holds a
 * config of this team, and the team's own config is gone or belongs to the same lead session (a
 * writer can recreate the directory in between, as in 2.1.332 snapshot 5). A tombstone of an
 * earlier team of the name (another `leadSessionId`) does not count.
 */
export async function teamRemoval(ctx: FsContext, team: string): Promise<TeamRemoval | undefined> {
  const dir = teamDirName(team);
  const tombstones = (await teamDirs(ctx)).filter((d) => tombstoneOf(d) === dir);
  if (tombstones.length === 0) return undefined;
  const live = await readConfigAt(ctx.layout.configPath(team)).catch(() => undefined);
  for (const tombstone of tombstones) {
    const location = join(ctx.layout.teamsDir, tombstone);
    const config = await readConfigAt(join(location, 'config.json')).catch(() => undefined);
    if (config?.name !== team) continue;
    if (live === undefined || live.name !== team || live.leadSessionId === config.leadSessionId) return { location };
  }
  return undefined;
}

/**
 * Task list ids (`tasks/<list>`) that belong to a team: every live team's, and those of teams Claude
 * Code is removing (a tombstone holds their config: their list is not a leftover yet).
 */
export async function teamTaskLists(ctx: FsContext): Promise<Set<string>> {
  const lists = new Set<string>();
  for (const dir of await teamDirs(ctx)) {
    const config = await readConfigAt(join(ctx.layout.teamsDir, dir, 'config.json')).catch(() => undefined);
    if (config) lists.add(taskListId(config.name));
    else if (tombstoneOf(dir) === undefined) lists.add(taskListId(dir)); // an unreadable config is still a team: doctor reports the file
  }
  return lists;
}

/** Reads a team's config. @throws TEAM_NOT_FOUND (also when its directory holds a team of another name, e.g. `a/b` vs `a-b`), FILE_CORRUPT */
export async function readConfig(ctx: FsContext, team: string): Promise<TeamConfig> {
  const config = await readConfigAt(ctx.layout.configPath(team));
  // The sanitiser maps several names to one directory (`a/b` and `a-b`): only the team's own name finds it.
  if (config === undefined || config.name !== team) throw await teamNotFound(ctx, team);
  return config;
}

async function readConfigAt(path: string): Promise<TeamConfig | undefined> {
  const read = await readJsonFile(path);
  if (read.state === 'missing') return undefined;
  const parsed = TeamConfigSchema.safeParse(read.value);
  if (!parsed.success) throw corruptFile(path, parsed.error, 'does not match the team config format');
  return read.value as TeamConfig;
}

/** Builds TEAM_NOT_FOUND, listing the teams that do exist. */
export async function teamNotFound(ctx: FsContext, team: string): Promise<MailroomError> {
  const names = (await listTeams(ctx)).map((t) => t.name);
  const known = names.length > 0 ? `Teams in ${ctx.layout.root}: ${names.join(', ')}.` : `There are no teams in ${ctx.layout.root}.`;
  return new MailroomError('TEAM_NOT_FOUND', `Team "${team}" not found. ${known} Create it with \`mailroom team create ${team}\`.`, {
    details: { team, teams: names, root: ctx.layout.root },
  });
}

/** Creates config.json (exclusive) and the task list directory with its `.lock` anchor. @throws TEAM_EXISTS */
export async function createTeam(ctx: FsContext, config: TeamConfig): Promise<void> {
  const { layout } = ctx;
  const dir = layout.teamDir(config.name);
  await ensureDir(dir);
  await withLock(layout.configPath(config.name), lockDirFor(layout.configPath(config.name)), ctx.lock, async (lock) => {
    if ((await readJsonFile(layout.configPath(config.name))).state !== 'missing') {
      throw new MailroomError('TEAM_EXISTS', `Team "${config.name}" already exists in ${layout.root}. Pick another name or delete it with \`mailroom team delete ${config.name}\`.`, {
        details: { team: config.name },
      });
    }
    await writeJsonFile(layout.configPath(config.name), config, lock, { exclusive: true });
  });
  await ensureDir(layout.taskDir(config.name));
  await writeFile(layout.listLockAnchor(config.name), '', { flag: 'a', mode: FILE_MODE });
}

/** Locked read-modify-write of config.json; `change` mutates the config in place. */
export async function updateConfig<T>(ctx: FsContext, team: string, change: (config: TeamConfig) => T | Promise<T>): Promise<T> {
  const path = ctx.layout.configPath(team);
  await readConfig(ctx, team);
  return withLock(path, lockDirFor(path), ctx.lock, async (lock) => {
    const config = await readConfig(ctx, team);
    const baseText = formatJson(config); // the file as read (rewritten byte for byte, Claude Code's format)
    const result = await change(config);
    const check = TeamConfigSchema.safeParse(config);
    if (!check.success) throw new MailroomError('INTERNAL', `Refusing to write an invalid config to ${path}: ${check.error.message}`);
    await writeJsonFile(path, config, lock, { recovery: { baseText, merge: mergeObject } });
    return result;
  });
}

/** Removes `teams/<teamDir>`, the inbox directory (if separate) and `tasks/<listId>`. */
export async function deleteTeam(ctx: FsContext, team: string): Promise<void> {
  const { layout } = ctx;
  await moveHistoryAside(ctx, team);
  await rm(layout.taskDir(team), { recursive: true, force: true });
  await rm(join(layout.inboxDir(team), '..'), { recursive: true, force: true });
  await rm(layout.teamDir(team), { recursive: true, force: true });
}

/**
 * Moves the team's journal, inbox archive and member records to `<root>/mailroom/deleted/<team>-<stamp>/`, so a
 * team re-created under the name starts with an empty history while the old one stays on disk.
 */
async function moveHistoryAside(ctx: FsContext, team: string): Promise<void> {
  const { layout } = ctx;
  const dest = layout.deletedTeamDir(team, new Date().toISOString().replace(/[:.]/g, '-'));
  const moves: Array<[string, string]> = [
    [layout.journalPath(team), join(dest, 'journal.ndjson')],
    [layout.inboxArchiveDir(team), join(dest, 'archive')],
    [layout.memberRecordDir(team), join(dest, 'members')],
  ];
  for (const [from, to] of moves) {
    try {
      await stat(from);
    } catch (err) {
      if (isErrno(err, 'ENOENT')) continue;
      throw err;
    }
    await ensureDir(dest);
    await rename(from, to);
  }
}
