/**
 * Team configs on disk: `teams/<teamDir>/config.json`, locked with `config.json.lock`
 * (Claude Code 2.1.109+, reference §2 and §6): listing, reading, creating.
 */
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MailroomError, isErrno } from '../../errors.js';
import { memberEvent, teamEvent } from '../../domain/events.js';
import { TeamConfigSchema, type TeamConfig } from '../../protocol/config.js';
import { corruptFile, readJsonFile, writeJsonFile, FILE_MODE } from '../json-file.js';
import type { OpContext, TeamRef, Transition } from '../team-store.js';
import { ensureDir, locked, stampOf, type FsContext } from './context.js';
import { journal } from './journal.js';

/** Lists every directory under `teams/` whose config.json parses as a team config. */
export async function listTeams(ctx: FsContext): Promise<TeamRef[]> {
  let dirs: string[];
  try {
    dirs = await readdir(ctx.layout.teamsDir);
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return [];
    throw err;
  }
  const teams: TeamRef[] = [];
  for (const dir of dirs.sort()) {
    if (/\.deleted-/.test(dir)) continue; // Claude Code's tombstones (`<team>.deleted-<uuid>`)
    const config = await readConfigAt(join(ctx.layout.teamsDir, dir, 'config.json')).catch((err: unknown) => {
      ctx.lock.onWarning?.(`mailroom: skipping team directory ${dir}: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    });
    if (config) teams.push({ name: config.name });
  }
  return teams;
}

/** Reads a team's config. @throws TEAM_NOT_FOUND (also when its directory holds a team of another name, e.g. `a/b` vs `a-b`), FILE_CORRUPT */
export async function readConfig(ctx: FsContext, team: string): Promise<TeamConfig> {
  const config = await readConfigAt(ctx.layout.configPath(team));
  // The sanitiser maps several names to one directory (`a/b` and `a-b`): only the team's own name finds it.
  if (config === undefined || config.name !== team) throw await teamNotFound(ctx, team);
  return config;
}

/** The config at `path`, undefined when missing. @throws FILE_CORRUPT */
export async function readConfigAt(path: string): Promise<TeamConfig | undefined> {
  const read = await readJsonFile(path);
  if (read.state === 'missing') return undefined;
  const parsed = TeamConfigSchema.safeParse(read.value);
  if (!parsed.success) throw corruptFile(path, parsed.error, 'does not match the team config format');
  return read.value as TeamConfig;
}

/** True when the team's config exists and names it. */
export async function teamExists(ctx: FsContext, team: string): Promise<boolean> {
  try {
    return (await readConfigAt(ctx.layout.configPath(team)))?.name === team;
  } catch (err) {
    if (err instanceof MailroomError && err.code === 'FILE_CORRUPT') return true; // something is there: never overwrite it
    throw err;
  }
}

/** Builds TEAM_NOT_FOUND, listing the teams that do exist. */
export async function teamNotFound(ctx: FsContext, team: string): Promise<MailroomError> {
  const names = (await listTeams(ctx)).map((t) => t.name);
  const known = names.length > 0 ? `Teams in ${ctx.layout.root}: ${names.join(', ')}.` : `There are no teams in ${ctx.layout.root}.`;
  return new MailroomError('TEAM_NOT_FOUND', `Team "${team}" not found. ${known} Create it with \`mailroom team create ${team}\`.`, {
    details: { team, teams: names, root: ctx.layout.root },
  });
}

/** TEAM_EXISTS for `name`. */
export function teamExistsError(ctx: FsContext, name: string): MailroomError {
  return new MailroomError('TEAM_EXISTS', `Team "${name}" already exists in ${ctx.layout.root}. Pick another name or delete it with \`mailroom team delete ${name}\`.`, {
    details: { team: name },
  });
}

/**
 * Creates config.json (exclusively, under its lock) and journals the team's creation and its
 * members joining, then makes the task list directory with its `.lock` anchor. @throws TEAM_EXISTS
 */
export async function createTeam(ctx: FsContext, config: TeamConfig, op?: OpContext): Promise<Transition<TeamConfig>> {
  const { layout } = ctx;
  const path = layout.configPath(config.name);
  await ensureDir(layout.teamDir(config.name));
  const events = await locked(ctx, path, async (lock) => {
    if ((await readJsonFile(path)).state !== 'missing') throw teamExistsError(ctx, config.name);
    await writeJsonFile(path, config, lock);
    const s = stampOf(config.name, op);
    const made = [teamEvent(s, 'created'), ...config.members.map((m) => memberEvent(s, 'joined', m.name, m.agentId))];
    await journal(ctx, config.name, made);
    return made;
  });
  await ensureDir(layout.taskDir(config.name));
  await writeFile(layout.listLockAnchor(config.name), '', { flag: 'a', mode: FILE_MODE });
  return { value: config, events };
}

/**
 * Locked read-modify-write of config.json for the roster transitions in this directory: `change`
 * is synchronous and pure (it mutates the config object and returns what the transition returns),
 * so no I/O ever runs under the config lock but the store's own.
 */
export async function changeConfig<T>(ctx: FsContext, team: string, change: (config: TeamConfig) => { result: T; write: boolean }, after: (result: T) => Promise<void>): Promise<T> {
  const path = ctx.layout.configPath(team);
  await readConfig(ctx, team);
  return locked(ctx, path, async (lock) => {
    const config = await readConfig(ctx, team);
    const { result, write } = change(config);
    if (write) {
      const check = TeamConfigSchema.safeParse(config);
      if (!check.success) throw new MailroomError('INTERNAL', `Refusing to write an invalid config to ${path}: ${check.error.message}`);
      await writeJsonFile(path, config, lock);
    }
    await after(result);
    return result;
  });
}
