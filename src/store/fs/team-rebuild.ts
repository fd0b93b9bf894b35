/**
 * Teams whose config.json cannot be read, and rebuilding it (issue 23 item 3): a team directory
 * whose config.json does not parse, or that holds inboxes but no config.json at all, is still a
 * team — its mail is there. `team list` names it, `doctor` reports it until it is repaired, and
 * `doctor --fix` rebuilds the roster from what is left: the journal (members joined and left), the
 * member records under `<root>/mailroom/members/` and the inbox files. The unreadable file is kept
 * beside as `config.json.corrupt-<stamp>`; nothing is overwritten (the rebuilt config is written
 * exclusively, under the config lock).
 */
import { readdir, readFile, rename, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { isErrno } from '../../errors.js';
import type { Member, TeamConfig } from '../../protocol/config.js';
import { stampNow, type StoreIssue, type StoreRepair } from '../health.js';
import type { UnreadableTeam } from '../team-store.js';
import type { FsContext } from './context.js';
import { locked } from './context.js';
import { checkStateFile } from './health-files.js';
import { readEvents } from './journal.js';
import { readJsonFile, writeJsonFile } from './json-file.js';
import { readMemberRecords } from './member-records.js';
import { tombstoneOf } from './names.js';

/** The lead's member name in every team mailroom or Claude Code makes. */
const LEAD = 'team-lead';

/**
 * Every team directory under `teams/` whose config cannot be read: config.json is corrupt, or it
 * is missing — beside inbox files, or with none ({@link UnreadableTeam.noMail}: a directory left
 * from a team whose config was removed, or made by hand). Tombstones of teams Claude Code is
 * removing are not teams.
 */
export async function unreadableTeams(ctx: FsContext): Promise<UnreadableTeam[]> {
  const out: UnreadableTeam[] = [];
  for (const dir of await teamDirNames(ctx)) {
    const found = await unreadableAt(ctx, dir);
    if (found) out.push(found);
  }
  return out;
}

/** Why the team directory `dir` is unreadable, or undefined when its config reads (or it is no team). */
async function unreadableAt(ctx: FsContext, dir: string): Promise<UnreadableTeam | undefined> {
  const location = join(ctx.layout.teamsDir, dir, 'config.json');
  const exists = await stat(location).then(
    () => true,
    () => false,
  );
  if (exists) {
    const detail = await checkStateFile(location, 'config');
    return detail === undefined ? undefined : { team: await teamNameOf(ctx, dir), location, detail };
  }
  const inboxes = await inboxNames(join(ctx.layout.teamsDir, dir, 'inboxes'));
  if (await beingRemoved(ctx, dir)) return undefined; // a straggler's inbox in a team Claude Code is removing
  if (inboxes.length === 0) return (await isStrayTeamDir(ctx, dir)) ? { team: await teamNameOf(ctx, dir), location, detail: `is missing (${join(ctx.layout.teamsDir, dir)} holds no inbox either)`, noMail: true } : undefined;
  return { team: await teamNameOf(ctx, dir), location, detail: `is missing while ${join(ctx.layout.teamsDir, dir, 'inboxes')} holds ${inboxes.length} inbox${inboxes.length === 1 ? '' : 'es'}` };
}

/** The `missing-config` issues of the scan: team directories with inboxes and no config.json (a corrupt one is a `corrupt-file`). */
export async function missingConfigIssues(ctx: FsContext): Promise<StoreIssue[]> {
  const issues: StoreIssue[] = [];
  for (const t of await unreadableTeams(ctx)) {
    if (await stat(t.location).then(() => false, () => true)) issues.push({ kind: 'missing-config', location: t.location, team: t.team, detail: t.detail });
  }
  return issues;
}

/**
 * Repairs an unreadable config: under its lock, moves a corrupt file aside (kept as
 * `config.json.corrupt-<stamp>`) and writes a config rebuilt from the journal, the member records
 * and the inbox files. A config that reads fine by then is left alone.
 */
export async function rebuildConfig(ctx: FsContext, location: string): Promise<StoreRepair> {
  const dir = basename(join(location, '..'));
  return locked(ctx, location, async (lock) => {
    const now = await readJsonFile(location).then(
      (r) => r.state,
      () => 'corrupt' as const,
    );
    if (now !== 'missing' && (await checkStateFile(location, 'config')) === undefined) return { done: true, note: 'it reads fine now: left as it is', bytesFreed: 0 };
    let movedTo: string | undefined;
    if (now !== 'missing') {
      movedTo = `${location}.corrupt-${stampNow()}`;
      await lock.assertHeld(`moving ${location} aside`);
      await rename(location, movedTo);
    }
    const config = await rebuiltConfig(ctx, dir);
    await writeJsonFile(location, config, lock, { exclusive: true });
    const names = config.members.map((m) => m.name).join(', ');
    const kept = movedTo ? `; the unreadable file is kept as ${basename(movedTo)}` : '';
    const note = `rebuilt config.json of team ${config.name} with ${config.members.length} member${config.members.length === 1 ? '' : 's'} (${names}) from its journal, member records and inboxes${kept}. Check it: descriptions, models and colors are not recoverable`;
    return { done: true, note, bytesFreed: 0, ...(movedTo ? { movedTo } : {}) };
  });
}

/** A config for the team in `teams/<dir>`: the lead, then every member the journal still has, every member record and every inbox. */
async function rebuiltConfig(ctx: FsContext, dir: string): Promise<TeamConfig> {
  const team = await teamNameOf(ctx, dir);
  const members = new Map<string, Member>();
  const add = (name: string, agentId?: string, joinedAt?: number) => {
    if (!members.has(name)) members.set(name, { agentId: agentId ?? `${name}@${team}`, name, ...(joinedAt !== undefined ? { joinedAt } : {}) });
  };
  const journal = await journalRoster(ctx, team);
  add(LEAD, journal.roster.get(LEAD)?.agentId, journal.roster.get(LEAD)?.joinedAt);
  for (const [name, m] of journal.roster) add(name, m.agentId, m.joinedAt);
  for (const r of await readMemberRecords(ctx, team)) if (!journal.left.has(r.name)) add(r.name, r.agentId, r.joinedAt);
  for (const name of await inboxNames(ctx.layout.inboxDir(team))) if (!journal.left.has(name)) add(name);
  const lead = members.get(LEAD)!;
  lead.agentType = LEAD;
  const made = await stat(join(ctx.layout.teamsDir, dir));
  const createdAt: number = journal.createdAt ?? Math.round(made.birthtimeMs || made.mtimeMs);
  return { name: team, createdAt, leadAgentId: lead.agentId, members: [...members.values()] };
}

interface JournalRoster {
  roster: Map<string, { agentId?: string | undefined; joinedAt: number }>;
  /** Members whose last event is `left`. */
  left: Set<string>;
  createdAt?: number;
}

/** Replays the team's journal: who joined and did not leave since, in order; when the team was created. */
async function journalRoster(ctx: FsContext, team: string): Promise<JournalRoster> {
  const out: JournalRoster = { roster: new Map(), left: new Set() };
  const { events } = await readEvents(ctx, team).catch(() => ({ events: [] }));
  for (const e of events) {
    const at = Date.parse(e.at);
    if (e.kind === 'team' && (e.action === 'created' || e.action === 'restored')) out.createdAt ??= at;
    if (e.kind !== 'member') continue;
    if (e.action === 'joined') {
      out.roster.set(e.name, { agentId: e.agentId, joinedAt: at });
      out.left.delete(e.name);
    } else if (e.action === 'left') {
      out.roster.delete(e.name);
      out.left.add(e.name);
    }
  }
  return out;
}

/**
 * The team's name for the directory `teams/<dir>`: the `team` of its member records or of its
 * journal's first line when one maps to `dir` (a directory name is a sanitised, lowercased name),
 * else `dir` itself.
 */
async function teamNameOf(ctx: FsContext, dir: string): Promise<string> {
  for (const candidate of await candidateNames(ctx)) if (basename(ctx.layout.teamDir(candidate)) === dir) return candidate;
  return dir;
}

async function candidateNames(ctx: FsContext): Promise<string[]> {
  const names: string[] = [];
  for (const f of await readdir(ctx.layout.journalDir).catch(() => [] as string[])) {
    if (!f.endsWith('.ndjson')) continue;
    const first = (await readFile(join(ctx.layout.journalDir, f), 'utf8').catch(() => '')).split('\n', 1)[0] ?? '';
    const team = teamOfLine(first);
    if (team !== undefined) names.push(team);
  }
  for (const d of await readdir(ctx.layout.membersDir).catch(() => [] as string[])) {
    for (const r of await readMemberRecords(ctx, d).catch(() => [])) names.push(r.team);
  }
  return names;
}

function teamOfLine(line: string): string | undefined {
  try {
    const team = (JSON.parse(line) as { team?: unknown }).team;
    return typeof team === 'string' ? team : undefined;
  } catch {
    return undefined;
  }
}

/** Member names of the inbox files in `dir` (`<name>.json`; leftovers such as `.corrupt-*` are not inboxes). */
async function inboxNames(dir: string): Promise<string[]> {
  const files = await readdir(dir).catch((err: unknown) => {
    if (isErrno(err, 'ENOENT') || isErrno(err, 'ENOTDIR')) return [] as string[];
    throw err;
  });
  return files.filter((f) => f.endsWith('.json') && !f.startsWith('.')).map((f) => f.slice(0, -'.json'.length)).sort();
}

/** A team directory younger than this (ms) may be one being created (its config.json is written next): not reported. */
const CREATING_MS = 2_000;

/** Directories under `teams/<dir>/` that hold this machine's records (the host store's), not team data (./health-scan.ts). */
const HOST_SUBDIRS = new Set(['processes', 'logs']);

/**
 * True for a team directory without config.json or inboxes that is neither being created (younger
 * than {@link CREATING_MS}) nor only this machine's records (`processes/`, `logs/`: a Redis
 * store's host records share the directory layout).
 */
async function isStrayTeamDir(ctx: FsContext, dir: string): Promise<boolean> {
  const path = join(ctx.layout.teamsDir, dir);
  const made = await stat(path).catch(() => undefined);
  if (made === undefined || Date.now() - made.mtimeMs < CREATING_MS) return false;
  const entries = await readdir(path).catch(() => [] as string[]);
  return entries.length === 0 || entries.some((e) => !HOST_SUBDIRS.has(e));
}

/** True when a Claude Code tombstone `teams/<dir>.deleted-<uuid>` exists: the team is being removed. */
async function beingRemoved(ctx: FsContext, dir: string): Promise<boolean> {
  return (await readdir(ctx.layout.teamsDir).catch(() => [] as string[])).some((d) => tombstoneOf(d) === dir);
}

/** Directory names under `teams/` that may be teams (not tombstones, not lock directories). */
async function teamDirNames(ctx: FsContext): Promise<string[]> {
  const entries = await readdir(ctx.layout.teamsDir, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isDirectory() && tombstoneOf(e.name) === undefined && !e.name.endsWith('.lock'))
    .map((e) => e.name)
    .sort();
}
