/**
 * Deleting a team without losing it (issue 9 item 3, store part): `team delete` moves everything of
 * the team — `teams/<dir>` (config, inboxes, mailroom's process records and logs), a separate inbox
 * directory of a Claude Code–named team, `tasks/<list>`, the journal, the inbox archive, the lease
 * sidecars, idempotency records and member records — into `<root>/mailroom/deleted/<team>-<stamp>/`, with a
 * manifest `deleted.json` written first. `restoreTeam` moves the parts back; the deleted directory
 * is removed once it is empty. Reader claims are not kept: they name processes of the deleted team.
 *
 * Each part moves with one `rename`, so no reader sees half a file. A crash in the middle leaves
 * the manifest and the parts moved so far: `listDeletedTeams` lists it and `restoreTeam` brings
 * back what was moved (the rest never left). Directories from before this format (journal and
 * archive only, no manifest) are not listed.
 */
import { readdir, rename, rm, rmdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { lazySchema } from '../../protocol/lazy-schema.js';
import { MailroomError, isErrno } from '../../errors.js';
import { teamEvent } from '../../domain/events.js';
import type { TeamConfig } from '../../protocol/config.js';
import { readJsonFile, writeJsonFile } from './json-file.js';
import { pathPart } from './names.js';
import type { DeletedTeam, OpContext, Transition } from '../team-store.js';
import { ensureDir, exists, nowOf, stampOf, type FsContext } from './context.js';
import { journal } from './journal.js';
import { readConfig, readConfigAt, teamExists, teamExistsError } from './teams.js';

const MANIFEST = 'deleted.json';

const ManifestSchema = lazySchema(() => z.object({
  v: z.literal(1),
  team: z.string(),
  deletedAt: z.number(),
  /** Part name inside the deleted directory → path relative to the root it came from. */
  parts: z.record(z.string(), z.string()),
}));

/** The parts of a team: name in the deleted directory → where it lives. */
function partsOf(ctx: FsContext, team: string): Array<[string, string]> {
  const { layout } = ctx;
  const parts: Array<[string, string]> = [['team', layout.teamDir(team)]];
  const inboxTeam = dirname(layout.inboxDir(team));
  if (inboxTeam !== layout.teamDir(team)) parts.push(['inbox-team', inboxTeam]);
  parts.push(
    ['tasks', layout.taskDir(team)],
    ['journal.ndjson', layout.journalPath(team)],
    ['archive', layout.inboxArchiveDir(team)],
    ['leases', layout.leaseDir(team)],
    ['idempotency', layout.idempotencyDir(team)],
    ['members', layout.memberRecordDir(team)],
    ['dead-letters.json', layout.deadLettersPath(team)],
  );
  return parts;
}

/** `path` relative to the store root, for the manifest. */
function relative(ctx: FsContext, path: string): string {
  return path.startsWith(`${ctx.layout.root}/`) ? path.slice(ctx.layout.root.length + 1) : path;
}

/** Moves the team aside (see the module comment); journals `team deleted` first. @throws TEAM_NOT_FOUND */
export async function deleteTeam(ctx: FsContext, team: string, op?: OpContext): Promise<Transition<DeletedTeam>> {
  await readConfig(ctx, team);
  const deletedAt = nowOf(op);
  const id = `${pathPart(team)}-${new Date(deletedAt).toISOString().replace(/[:.]/g, '-')}`;
  const dest = join(ctx.layout.deletedRoot, id);
  const events = [teamEvent(stampOf(team, op), 'deleted')];
  await journal(ctx, team, events);
  const parts: Record<string, string> = {};
  for (const [name, from] of partsOf(ctx, team)) if (await exists(from)) parts[name] = relative(ctx, from);
  await ensureDir(dest);
  await writeJsonFile(join(dest, MANIFEST), { v: 1, team, deletedAt, parts });
  for (const [name, from] of partsOf(ctx, team)) {
    if (parts[name] === undefined) continue;
    await rename(from, join(dest, name)).catch((err: unknown) => {
      if (!isErrno(err, 'ENOENT')) throw err;
    });
  }
  await rm(ctx.layout.readerDir(team), { recursive: true, force: true });
  return { value: { team, id, deletedAt, location: dest }, events };
}

async function readManifest(dir: string): Promise<z.infer<typeof ManifestSchema> | undefined> {
  const read = await readJsonFile(join(dir, MANIFEST), { attempts: 1 }).catch(() => undefined);
  if (read?.state !== 'ok') return undefined;
  const parsed = ManifestSchema.safeParse(read.value);
  return parsed.success ? parsed.data : undefined;
}

/** Teams moved aside, newest first (of one name, or all). */
export async function listDeletedTeams(ctx: FsContext, team?: string): Promise<DeletedTeam[]> {
  const names = await readdir(ctx.layout.deletedRoot).catch(() => [] as string[]);
  const out: DeletedTeam[] = [];
  for (const id of names) {
    const dir = join(ctx.layout.deletedRoot, id);
    const manifest = await readManifest(dir);
    if (!manifest || (team !== undefined && manifest.team !== team)) continue;
    out.push({ team: manifest.team, id, deletedAt: manifest.deletedAt, location: dir });
  }
  return out.sort((a, b) => b.deletedAt - a.deletedAt);
}

/**
 * Moves a deleted team back and journals `team restored`.
 * @throws TEAM_NOT_FOUND (no such id), TEAM_EXISTS (a team of that name exists, or one of its
 * directories is in the way)
 */
export async function restoreTeam(ctx: FsContext, id: string, op?: OpContext): Promise<Transition<TeamConfig>> {
  const dir = join(ctx.layout.deletedRoot, basename(id));
  const manifest = basename(id) === id ? await readManifest(dir) : undefined;
  if (!manifest) {
    throw new MailroomError('TEAM_NOT_FOUND', `No deleted team with id "${id}" in ${ctx.layout.root}. List them with \`mailroom team restore --list\`.`, { details: { id } });
  }
  const { team } = manifest;
  if (await teamExists(ctx, team)) throw teamExistsError(ctx, team);
  const moves = partsOf(ctx, team).filter(([name]) => manifest.parts[name] !== undefined);
  for (const [name, to] of moves) {
    if ((await exists(join(dir, name))) && (await exists(to)) && !(await emptyDir(to))) {
      throw new MailroomError('TEAM_EXISTS', `Cannot restore team "${team}": ${to} is in the way. Move it aside, then retry.`, { details: { team, path: to } });
    }
  }
  for (const [name, to] of moves) {
    if (!(await exists(join(dir, name)))) continue;
    await ensureDir(dirname(to));
    if (await exists(to)) await rmdir(to);
    await rename(join(dir, name), to);
  }
  const config = await readConfigAt(ctx.layout.configPath(team));
  if (!config) throw new MailroomError('TEAM_NOT_FOUND', `The deleted team "${team}" (${dir}) has no config.json to restore.`, { details: { id } });
  await rm(join(dir, MANIFEST), { force: true });
  await rmdir(dir).catch(() => undefined);
  const events = [teamEvent(stampOf(team, op), 'restored')];
  await journal(ctx, team, events);
  return { value: config, events };
}

async function emptyDir(path: string): Promise<boolean> {
  const entries = await readdir(path).catch(() => undefined);
  return entries !== undefined && entries.length === 0;
}
