/**
 * Team use cases: create, list, resolve, show, delete, restore. Config shapes match Claude Code
 * 2.1.109 (reference §2 and the 2.1.109 snapshots).
 */
import { UNKNOWN_MODEL } from '../members/known-model.js';
import { randomUUID } from '../../protocol/random.js';
import { MailroomError, isMailroomError } from '../../errors.js';
import { LEAD_NAME, NAME_PATTERN, assertValidName } from '../../domain/names.js';
import { isTeammate } from '../../domain/roster.js';
import type { Member, TeamConfig } from '../../protocol/config.js';
import { recordIsFor } from '../../protocol/member-record.js';
import { capabilitiesOf } from '../../domain/capabilities.js';
import type { TaskStatus } from '../../protocol/task.js';
import type { DeletedTeam, UnreadableTeam } from '../../store/team-store.js';
import { presenceOf } from '../../domain/presence.js';
import { presenceView, type MemberPresence } from '../members/presence.js';
import { hostOf, nowOf, opOf, teamOf, type BaseOptions, type TeamOptions } from '../context.js';
import { describeRunning, runningMembers } from '../members/running-members.js';

/** Input of {@link createTeam}. */
export interface CreateTeamOptions extends TeamOptions {
  description?: string;
  /** The lead's model id (default `"unknown"`: the lead is usually a human or an outside agent). */
  leadModel?: string;
  /** The lead's working directory (default `process.cwd()`). */
  cwd?: string;
  /** The lead's session id (default a fresh UUID). */
  leadSessionId?: string;
}

/**
 * Creates the team with the lead as the only member, and its task list; the journal starts with
 * the team's creation and the lead joining.
 * @returns the config as written.
 * @throws INVALID_NAME, TEAM_EXISTS
 */
export async function createTeam(options: CreateTeamOptions): Promise<TeamConfig> {
  // Existing team names are only needed to make a refused name's suggestion a free one.
  assertValidName(options.team, 'team', { taken: NAME_PATTERN.test(options.team) ? [] : await listTeams(options) });
  const now = nowOf(options);
  const config: TeamConfig = { name: options.team } as TeamConfig;
  if (options.description !== undefined) config.description = options.description;
  Object.assign(config, {
    createdAt: now,
    leadAgentId: `${LEAD_NAME}@${options.team}`,
    leadSessionId: options.leadSessionId ?? randomUUID(),
    members: [leadMember(options, now)],
  });
  // The journal's first lines carry the config's createdAt, not a clock read a millisecond later.
  return (await teamOf(options).createTeam(config, { ...opOf(options), now })).value;
}

function leadMember(options: CreateTeamOptions, now: number): Member {
  return {
    agentId: `${LEAD_NAME}@${options.team}`,
    name: LEAD_NAME,
    agentType: LEAD_NAME,
    model: options.leadModel ?? UNKNOWN_MODEL,
    joinedAt: now,
    tmuxPaneId: '',
    cwd: options.cwd ?? process.cwd(),
    subscriptions: [],
  };
}

/** Names of every team in the store, sorted. */
export async function listTeams(options: BaseOptions): Promise<string[]> {
  return (await teamOf(options).listTeams()).map((t) => t.name).sort();
}

/**
 * Teams whose config cannot be read (corrupt, or inboxes without one), which {@link listTeams}
 * leaves out (issue 23 item 3).
 */
export async function unreadableTeams(options: BaseOptions): Promise<UnreadableTeam[]> {
  return teamOf(options).unreadableTeams();
}

/**
 * FILE_CORRUPT naming the unreadable teams, with the fix: `mailroom doctor --fix` rebuilds each
 * roster from what is left, keeping the unreadable file beside.
 */
export function unreadableTeamsError(unreadable: readonly UnreadableTeam[]): MailroomError {
  const what = unreadable.map((u) => `team ${u.team}: ${u.location} ${u.detail}`).join('; ');
  return new MailroomError(
    'FILE_CORRUPT',
    `${unreadable.length === 1 ? 'A team cannot' : `${unreadable.length} teams cannot`} be read (${what}). mailroom will not overwrite an unreadable config. ` +
      'Run `mailroom doctor --fix` to rebuild the roster from the team\'s journal, member records and inboxes (the unreadable file is kept beside it).',
    { details: { unreadable: unreadable.map((u) => ({ ...u })) } },
  );
}

/**
 * Picks the team to act on: `team` if given, else `$MAILROOM_TEAM` (passed as `envTeam`), else the
 * only team in the store.
 * @throws TEAM_NOT_FOUND when there is no team, FILE_CORRUPT when every team is unreadable,
 * TEAM_AMBIGUOUS (listing the readable teams, then the unreadable ones; `details.teams`,
 * `details.unreadable`) when there are several.
 */
export async function resolveTeam(options: BaseOptions & { team?: string | undefined; envTeam?: string | undefined }): Promise<string> {
  const explicit = options.team || options.envTeam;
  if (explicit) return explicit;
  const teams = await listTeams(options);
  // A directory without config or mail hides nothing: not counted ("the only team" stays the only one).
  const unreadable = (await unreadableTeams(options)).filter((u) => !u.noMail);
  if (teams.length === 1 && unreadable.length === 0) return teams[0]!;
  if (teams.length === 0) {
    if (unreadable.length > 0) throw unreadableTeamsError(unreadable);
    const store = teamOf(options);
    const location = store.selection.kind === 'fs' ? store.location : `the Redis store at ${store.location}`;
    throw new MailroomError('TEAM_NOT_FOUND', `No team exists yet in ${location}. Create one with \`mailroom team create <team>\`, or point --root (or --store) at the store that has your team.`, { details: { teams, location } });
  }
  // An unreadable team counts: "the only team" is not the only one (issue 23 item 3), and a user
  // choosing --team hears of it once, here (new-user trial: also as a "skipping" warning before).
  const hidden = unreadable.length > 0 ? `; ${unreadable.map((u) => u.team).join(', ')} cannot be read: run \`mailroom doctor\`` : '';
  throw new MailroomError('TEAM_AMBIGUOUS', `Several teams exist (${teams.join(', ')}${hidden}): pass --team <team> or set MAILROOM_TEAM.`, {
    details: { teams, ...(unreadable.length > 0 ? { unreadable: unreadable.map((u) => u.team) } : {}) },
  });
}

/** One row of {@link TeamSummary.members}. */
export interface MemberSummary {
  name: string;
  agentId: string;
  isLead: boolean;
  agentType?: string;
  model?: string;
  backendType?: string;
  /** How mailroom runs the member (`in-process`, `process`, `mcp`, …), from its member record. */
  runtime?: string;
  color?: string;
  isActive?: boolean;
  /** What it declares it can do, from its member record (omitted when none). */
  capabilities?: string[];
  /** Who runs it now, from its reader claim (src/domain/presence.ts): working, idle, stopped or dead; `unknown` for a member no mailroom runtime runs or ran (no claim, no member record). */
  presence: MemberPresence;
  unread: number;
  /**
   * Set when this member cannot be served and the rest of the team still is (issue 9 item 6): its
   * stable code (`NAME_TOO_LONG`: no inbox file can carry its name; `FILE_CORRUPT`: its inbox does
   * not parse) and what is wrong. `unread` is then 0.
   */
  problem?: { code: string; message: string };
}

/** What `mailroom team show` displays. */
export interface TeamSummary {
  config: TeamConfig;
  members: MemberSummary[];
  /** Task counts by status. */
  tasks: Record<TaskStatus, number>;
}

/** Reads a team's config, each member's unread count and the task counts. @throws TEAM_NOT_FOUND */
export async function showTeam(options: TeamOptions): Promise<TeamSummary> {
  const store = teamOf(options);
  const config = await store.readConfig(options.team);
  const records = new Map((await store.readMemberRecords(options.team)).map((r) => [r.name, r]));
  const shared = new Map((await store.inboxlessMembers(options.team)).filter((i) => i.code === 'INBOX_SHARED').map((i) => [i.member, i.with]));
  const claims = await store.readClaims(options.team);
  const now = nowOf(options);
  const members: MemberSummary[] = [];
  for (const m of config.members) {
    const read = await store.readInbox(options.team, m.name).then(
      (inbox) => ({ inbox, problem: undefined }),
      (err: unknown) => {
        if (!isMailroomError(err, 'NAME_TOO_LONG') && !isMailroomError(err, 'FILE_CORRUPT')) throw err;
        return { inbox: [], problem: { code: err.code, message: err.message } };
      },
    );
    const inbox = read.inbox;
    const own = records.get(m.name);
    members.push({
      name: m.name,
      agentId: m.agentId,
      isLead: m.agentId === config.leadAgentId,
      ...pick(m),
      ...(own && recordIsFor(own, m) ? { runtime: own.runtime } : {}),
      ...(own && recordIsFor(own, m) && capabilitiesOf(own).length > 0 ? { capabilities: capabilitiesOf(own) } : {}),
      presence: (own === undefined || !recordIsFor(own, m)) && !claims.some((c) => c.member === m.name) ? { state: 'unknown' } : presenceView(presenceOf(m.name, claims, now)),
      unread: inbox.filter((e) => e.read !== true).length,
      ...(read.problem ? { problem: read.problem } : shared.has(m.name) ? { problem: sharedInbox(m.name, shared.get(m.name)) } : {}),
    });
  }
  const tasks: Record<TaskStatus, number> = { pending: 0, in_progress: 0, completed: 0 };
  for (const t of await store.listTasks(options.team)) tasks[t.status]++;
  return { config, members, tasks };
}

/** The flag of a member whose inbox file is another member's (INBOX_SHARED). */
export function sharedInbox(member: string, other: string | undefined): { code: string; message: string } {
  return {
    code: 'INBOX_SHARED',
    message: `"${member}" has no inbox of its own: its name becomes the same inbox file as "${other ?? '?'}" (Claude Code's file-name rule), so each would read the other's messages. Rename one in config.json; \`mailroom doctor\` lists such names.`,
  };
}

function pick(m: Member): Partial<MemberSummary> {
  const out: Partial<MemberSummary> = {};
  if (m.agentType !== undefined) out.agentType = m.agentType;
  if (m.model !== undefined) out.model = m.model;
  if (m.backendType !== undefined) out.backendType = m.backendType;
  if (m.color !== undefined) out.color = m.color;
  if (m.isActive !== undefined) out.isActive = m.isActive;
  return out;
}

/**
 * Deletes the team: its config, inboxes, tasks, journal and archive move aside, restorable with
 * {@link restoreTeam}. Refused while any member runs (a live reader claim or a live recorded
 * process, {@link runningMembers}: TEAMMATE_RUNNING listing them) and while a teammate is marked
 * active (`isActive: true`, TEAM_ACTIVE), unless `force` is set (`team delete --force` stops the
 * running teammates first: src/runtime/lifecycle/delete-team.ts).
 * A member mailroom runs counts as active while its presence is `working`; another (Claude Code's
 * own) by its `isActive`.
 * @returns where the team went (`location`, for humans) and the id to restore it with
 * @throws TEAM_NOT_FOUND, TEAMMATE_RUNNING, TEAM_ACTIVE
 */
export async function deleteTeam(options: TeamOptions & { force?: boolean | undefined }): Promise<DeletedTeam> {
  const store = teamOf(options);
  const config = await store.readConfig(options.team);
  if (!options.force) {
    const running = await runningMembers(options);
    if (running.length > 0) {
      throw new MailroomError(
        'TEAMMATE_RUNNING',
        `Team "${options.team}" has running members: ${running.map(describeRunning).join(', ')}. Deleting it would pull their inboxes and tasks from under them. Stop them first (\`mailroom team stop <name>\`), or pass --force to stop them and delete.`,
        { details: { team: options.team, running } },
      );
    }
  }
  const [records, claims] = await Promise.all([store.readMemberRecords(options.team), store.readClaims(options.team)]);
  const now = nowOf(options);
  // A member mailroom runs is active while its runtime beats `working` (a killed one may have left
  // isActive true behind); one mailroom does not run (Claude Code's own) by its isActive.
  const host = hostOf(options);
  const isActiveNow = async (m: Member) => {
    const own = records.find((r) => r.name === m.name);
    if (!own || !recordIsFor(own, m)) return m.isActive === true;
    const p = presenceOf(m.name, claims, now);
    if (p.state !== 'working') return false;
    // Its runtime on this machine is gone (killed before its claim ran out): not active.
    return !(p.host === host.hostId && p.pid !== undefined && (await host.probeProcess(p.pid)).kind === 'exited');
  };
  const active: string[] = [];
  for (const m of config.members) if (isTeammate(config, m) && (await isActiveNow(m))) active.push(m.name);
  if (active.length > 0 && !options.force) {
    throw new MailroomError(
      'TEAM_ACTIVE',
      `Team "${options.team}" still has active teammates (${active.join(', ')}). Shut them down first, or pass --force.`,
      { details: { team: options.team, active } },
    );
  }
  return (await store.deleteTeam(options.team, opOf(options))).value;
}

/** Teams moved aside by {@link deleteTeam}, newest first (of one name with `team`, else all). */
export async function listDeletedTeams(options: BaseOptions & { team?: string | undefined }): Promise<DeletedTeam[]> {
  return teamOf(options).listDeletedTeams(options.team);
}

/**
 * Brings a deleted team back: `id` from {@link listDeletedTeams}, or a team name (its most recent
 * deletion). @returns its config. @throws TEAM_NOT_FOUND (nothing deleted under that id or name), TEAM_EXISTS
 */
export async function restoreTeam(options: BaseOptions & { id: string }): Promise<TeamConfig> {
  const store = teamOf(options);
  const byName = (await store.listDeletedTeams(options.id))[0];
  return (await store.restoreTeam(byName?.id ?? options.id, opOf(options))).value;
}
