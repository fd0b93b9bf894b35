/**
 * Teams on Redis: create, read, list, delete (the generation is retired, restorable) and restore.
 */
import { randomUUID } from '../../protocol/random.js';
import { MailroomError } from '../../errors.js';
import type { TeamConfig } from '../../protocol/config.js';
import type { DeletedTeam, OpContext, TeamRef, Transition } from '../team-store.js';
import { assembleConfig, configSkeleton } from './codec.js';
import { envOf, nowOf, runOnce, type RedisContext } from './context.js';
import { DELETED_KEY, TEAMS_KEY, encodeTeam, teamBase } from './keys.js';

/** A team's roster row as read-team.lua returns it. */
export interface RosterRow {
  name: string;
  doc: string;
  ver: string;
}

/** A consistent snapshot of a team's config. */
export interface TeamSnapshot {
  skeleton: string;
  rosterVer: string;
  lead: string;
  roster: RosterRow[];
}

/** Reads the snapshot. @throws TEAM_NOT_FOUND */
export async function readTeam(rc: RedisContext, team: string): Promise<TeamSnapshot> {
  const value = (await runOnce(rc, 'read-team', team, [])).value as unknown[];
  const rows = value.slice(3) as string[][];
  return {
    skeleton: String(value[0]),
    rosterVer: String(value[1]),
    lead: String(value[2]),
    roster: rows.map(([name, doc, ver]) => ({ name: name!, doc: doc!, ver: ver! })),
  };
}

/**
 * The team's view stamp (read-view-stamp.lua; TeamStore.viewStamp). A caller sends it in the same
 * tick as its reads of the config and settings, so the server takes it first; a server that did
 * not hold the script (restarted, cache flushed) runs it only after SCRIPT LOAD, after those reads,
 * and a change between them would hide under the newer stamp. Such a stamp comes back marked
 * (`~reloaded`): it equals no team's stamp, so an append under it is refused (VIEW_MOVED) and the
 * view is read again, and a kept view under it is read again at its next take.
 * @throws TEAM_NOT_FOUND
 */
export async function readViewStamp(rc: RedisContext, team: string): Promise<string> {
  let reloaded = false;
  const stamp = String(((await runOnce(rc, 'read-view-stamp', team, [], {}, [], { onReload: () => (reloaded = true) })).value as string[])[0]);
  return reloaded ? `${stamp}~reloaded` : stamp;
}

/** The config of a snapshot. */
export function configOf(snapshot: TeamSnapshot): TeamConfig {
  return assembleConfig(snapshot.skeleton, snapshot.roster.map((r) => r.doc));
}

/** Every team, by name. */
export async function listTeams(rc: RedisContext): Promise<TeamRef[]> {
  const names = await rc.conn.call((c) => c.sMembers(TEAMS_KEY));
  return names.sort().map((name) => ({ name }));
}

/** Creates a team. @throws TEAM_EXISTS, MEMBER_EXISTS (two members of one name) */
export async function createTeam(rc: RedisContext, config: TeamConfig, ctx?: OpContext): Promise<Transition<TeamConfig>> {
  const team = config.name;
  const members = config.members.flatMap((m) => [m.name, m.name.toLowerCase(), m.agentId, JSON.stringify(m)]);
  const args = [team, envOf(team, ctx), configSkeleton(config), config.leadAgentId, randomUUID(), String(config.members.length), ...members];
  const out = await runOnce(rc, 'create-team', team, args, {}, [TEAMS_KEY]);
  return { value: config, events: out.events };
}

/** Retires the team's generation. @throws TEAM_NOT_FOUND */
export async function deleteTeam(rc: RedisContext, team: string, ctx?: OpContext): Promise<Transition<DeletedTeam>> {
  const now = nowOf(ctx);
  const out = await runOnce(rc, 'delete-team', team, [team, envOf(team, ctx), String(now), encodeTeam(team)], {}, [TEAMS_KEY, DELETED_KEY]);
  const [id, deletedAt, location] = out.value as string[];
  return { value: { team, id: id!, deletedAt: Number(deletedAt), location: location! }, events: out.events };
}

/** Deleted teams, newest first. */
export async function listDeletedTeams(rc: RedisContext, team?: string): Promise<DeletedTeam[]> {
  const ids = await rc.conn.call((c) => c.zRange(DELETED_KEY, 0, -1, { REV: true }));
  const out: DeletedTeam[] = [];
  for (const id of ids) {
    const rec = await rc.conn.call((c) => c.hGetAll(`${DELETED_KEY}:${id}`));
    if (rec.team === undefined || (team !== undefined && rec.team !== team)) continue;
    out.push({ team: rec.team, id, deletedAt: Number(rec.deletedAt), location: rec.location ?? '' });
  }
  return out;
}

/** Restores a deleted team. @throws TEAM_NOT_FOUND (no such id), TEAM_EXISTS */
export async function restoreTeam(rc: RedisContext, id: string, ctx?: OpContext): Promise<Transition<TeamConfig>> {
  const team = await rc.conn.call((c) => c.hGet(`${DELETED_KEY}:${id}`, 'team'));
  if (team === null || team === undefined) {
    throw new MailroomError('TEAM_NOT_FOUND', `No deleted team with id "${id}" in the Redis store at ${rc.location}.`, { details: { id } });
  }
  const out = await runOnce(rc, 'restore-team', team, [id, team, envOf(team, ctx)], {}, [TEAMS_KEY, DELETED_KEY]);
  return { value: configOf(await readTeam(rc, team)), events: out.events };
}

