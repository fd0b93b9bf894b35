/**
 * Team configs on disk: `teams/<teamDir>/config.json`, locked with `config.json.lock`
 * (Claude Code 2.1.109+, reference §2 and §6): listing, reading, creating.
 */
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MailroomError, isErrno, isMailroomError } from '../../errors.js';
import { memberEvent, teamEvent } from '../../domain/events.js';
import { teamExists as teamExistsRefusal, teamNotFound as teamNotFoundRefusal } from '../../domain/team-errors.js';
import { TeamConfigSchema, type TeamConfig } from '../../protocol/config.js';
import { corruptFile, formatJson, readJsonFile, writeJsonFile, FILE_MODE } from './json-file.js';
import { taskListId, tombstoneOf, teamDirName } from './names.js';
import type { OpContext, TeamRef, TeamRemoval, Transition } from '../team-store.js';
import { ensureDir, locked, stampOf, type FsContext } from './context.js';
import { journal } from './journal.js';
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
    if (config) teams.push({ name: config.name });
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

/** The config at `path`, undefined when missing. @throws FILE_CORRUPT */
export async function readConfigAt(path: string): Promise<TeamConfig | undefined> {
  const read = await readJsonFile(path).catch((err: unknown) => {
    throw isMailroomError(err, 'FILE_CORRUPT') ? withRebuildFix(err) : err;
  });
  if (read.state === 'missing') return undefined;
  const parsed = TeamConfigSchema.safeParse(read.value);
  if (!parsed.success) throw withRebuildFix(corruptFile(path, parsed.error, 'does not match the team config format'));
  return read.value as TeamConfig;
}

/** A corrupt config's FILE_CORRUPT says what repairs it: `doctor --fix` rebuilds the roster (team-rebuild.ts), it does not just move the file away. */
function withRebuildFix(err: MailroomError): MailroomError {
  const message = err.message.replace(
    /Inspect or move the file aside \(`mailroom doctor --fix` quarantines it\), then retry\.$/,
    "Run `mailroom doctor --fix` to rebuild the roster from the team's journal, member records and inboxes (the unreadable file is kept beside it), then retry.",
  );
  return new MailroomError('FILE_CORRUPT', message, { cause: err.cause, details: err.details });
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
  const headless = await headlessTeam(ctx, team);
  if (headless) return headless;
  return teamNotFoundRefusal(team, ctx.layout.root, (await listTeams(ctx)).map((t) => t.name));
}

/**
 * FILE_CORRUPT when `team`'s directory holds inboxes but no config.json (its config was moved or
 * lost): the team is there but unreadable, so it is neither "not found" nor free to create anew.
 * `details.missing` is true: a watcher reads it as the config going away (the team removed).
 */
async function headlessTeam(ctx: FsContext, team: string): Promise<MailroomError | undefined> {
  const path = ctx.layout.configPath(team);
  if ((await readJsonFile(path).catch(() => ({ state: 'corrupt' }))).state !== 'missing') return undefined;
  const inboxes = await readdir(ctx.layout.inboxDir(team)).catch(() => [] as string[]);
  const count = inboxes.filter((f) => f.endsWith('.json') && !f.startsWith('.')).length;
  if (count === 0 || (await teamRemoval(ctx, team)) !== undefined) return undefined; // Claude Code is removing it: a straggler's inbox, not a team
  return new MailroomError(
    'FILE_CORRUPT',
    `Team "${team}" is unreadable: ${path} is missing while ${ctx.layout.inboxDir(team)} holds ${count} inbox${count === 1 ? '' : 'es'}. ` +
      "Run `mailroom doctor --fix` to rebuild the roster from the team's journal, member records and inboxes.",
    { details: { team, path, missing: true } },
  );
}

/** TEAM_EXISTS for `name`. */
export function teamExistsError(ctx: FsContext, name: string): MailroomError {
  return teamExistsRefusal(name, ctx.layout.root);
}

/**
 * Creates config.json (exclusively, under its lock) and journals the team's creation and its
 * members joining, then makes the task list directory with its `.lock` anchor. @throws TEAM_EXISTS
 */
export async function createTeam(ctx: FsContext, config: TeamConfig, op?: OpContext): Promise<Transition<TeamConfig>> {
  const { layout } = ctx;
  const path = layout.configPath(config.name);
  const headless = await headlessTeam(ctx, config.name);
  if (headless) throw headless; // a new config would hide the old team's mail under a lead-only roster
  await ensureDir(layout.teamDir(config.name));
  const events = await locked(ctx, path, async (lock) => {
    if ((await readConfigAt(path)) !== undefined) throw teamExistsError(ctx, config.name);
    await writeJsonFile(path, config, lock, { exclusive: true });
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
 * so no I/O ever runs under the config lock but the store's own. A write that landed after its
 * lock was lost merges the other writer's change back (recover-object.ts); when its own change did
 * not survive, the whole step runs again on the config as it is then (`change` on a fresh read),
 * and `after` runs only once, after the write that stood.
 */
export async function changeConfig<T>(ctx: FsContext, team: string, change: (config: TeamConfig) => { result: T; write: boolean }, after: (result: T) => Promise<void>): Promise<T> {
  const path = ctx.layout.configPath(team);
  await readConfig(ctx, team);
  return locked(ctx, path, async (lock) => {
    const config = await readConfig(ctx, team);
    const baseText = formatJson(config); // the file as read (Claude Code's format is rewritten byte for byte)
    const { result, write } = change(config);
    if (write) {
      const check = TeamConfigSchema.safeParse(config);
      if (!check.success) throw new MailroomError('INTERNAL', `Refusing to write an invalid config to ${path}: ${check.error.message}`);
      await writeJsonFile(path, config, lock, { recovery: { baseText, merge: mergeObject } });
    }
    await after(result);
    return result;
  });
}
