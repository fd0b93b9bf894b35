/**
 * `mailroom doctor`: finds what can go wrong on disk and in a team's state, reports it, and with
 * `fix` repairs it (../shared/cases/11). Store-level problems (corrupt files, temp files left by
 * killed writers, stale locks) come from {@link Store.scanHealth}; team-level ones (dependencies,
 * owners, orphan inboxes) from doctor-teams.ts; commands left running by a dead runtime from
 * doctor-commands.ts. Store problems are repaired first, so team checks see the repaired files and
 * are not held up by dead locks.
 */
import { isMailroomError } from '../../errors.js';
import type { StoreIssue, StoreRepair } from '../../store/health.js';
import type { Stores } from '../../store/selection.js';
import type { TeamStore } from '../../store/team-store.js';
import type { BaseOptions } from '../context.js';
import { commandChecks } from './command-checks.js';
import { checkTeam } from './team-checks.js';
import type { Check, DoctorFinding, DoctorReport } from './findings.js';

export type { DoctorFinding, DoctorFindingKind, DoctorReport } from './findings.js';

/** Input of {@link doctor}. */
export interface DoctorOptions extends BaseOptions {
  /** Only check this team's state (store files are always all scanned). */
  team?: string;
  /** Repair what can be repaired. */
  fix?: boolean;
}

/**
 * Checks the store (and repairs it with `fix`). Never throws for a problem it finds; a repair that
 * fails is reported on its finding. @throws TEAM_NOT_FOUND when `team` is given and does not exist
 */
export async function doctor(options: DoctorOptions): Promise<DoctorReport> {
  const stores = options.root;
  const store = stores.team;
  const storeChecks = await scanBoth(stores);
  if (options.fix) await repair(storeChecks);
  const teamChecks: Check[] = await commandChecks(stores, options.team);
  let checked = 0;
  for (const team of await teamsToCheck(store, options.team)) {
    const config = await store.readConfig(team).catch((err: unknown) => {
      if (options.team !== undefined && !isMailroomError(err, 'FILE_CORRUPT')) throw err;
      return undefined;
    });
    if (!config) continue;
    checked++;
    teamChecks.push(...(await checkTeam(store, team, config)));
  }
  if (options.fix) await repair(teamChecks);
  return { ...report(store.location, [...storeChecks, ...teamChecks], options.fix === true), exists: await rootExists(stores), teams: checked };
}

/** False when nothing is at the files store's root (no directory, no file); a Redis store always exists. */
async function rootExists(stores: Stores): Promise<boolean> {
  if (stores.selection.kind !== 'fs') return true;
  return (await stores.host.userFileMtimeMs(stores.team.location)) !== undefined;
}

/** The team store's issues (team data) and the host store's (this machine's records), each repaired by its own store. */
async function scanBoth(stores: Stores): Promise<Check[]> {
  const checks: Check[] = [];
  for (const s of [stores.team, stores.host]) for (const issue of await s.scanHealth()) checks.push(storeCheck((i) => s.repairHealth(i), issue));
  return checks.sort((a, b) => ((a.finding.path ?? '') < (b.finding.path ?? '') ? -1 : (a.finding.path ?? '') > (b.finding.path ?? '') ? 1 : 0));
}

async function teamsToCheck(store: TeamStore, team: string | undefined): Promise<string[]> {
  if (team !== undefined) return [team];
  return (await store.listTeams()).map((t) => t.name);
}

async function repair(checks: Check[]): Promise<void> {
  for (const check of checks) {
    if (!check.fix || check.finding.severity !== 'problem') continue;
    check.finding.repair = await check.fix().catch((err: unknown) => ({
      done: false,
      note: `repair failed: ${err instanceof Error ? err.message : String(err)}`,
      bytesFreed: 0,
    }));
  }
}

function report(root: string, checks: Check[], fixed: boolean): Omit<DoctorReport, 'exists' | 'teams'> {
  const findings: DoctorFinding[] = checks.map((c) => c.finding);
  const problems = findings.filter((f) => f.severity === 'problem');
  return {
    root,
    fixed,
    findings,
    problems: problems.length,
    remaining: problems.filter((f) => !f.repair?.done).length,
    bytesFreed: findings.reduce((sum, f) => sum + (f.repair?.bytesFreed ?? 0), 0),
  };
}

function storeCheck(repairOne: (issue: StoreIssue) => Promise<StoreRepair>, issue: StoreIssue): Check {
  const finding: DoctorFinding = { kind: issue.kind, severity: 'problem', message: describe(issue), path: issue.location };
  if (issue.kind === 'name-too-long' || issue.kind === 'inbox-collision' || issue.kind === 'missing-config') finding.team = issue.team;
  if (issue.kind === 'temp-file') {
    finding.bytes = issue.bytes;
    if (!issue.removable) finding.severity = 'info';
  }
  if (issue.kind === 'server-setting') finding.severity = issue.severity;
  return { finding, fix: () => repairOne(issue) };
}

function describe(issue: StoreIssue): string {
  switch (issue.kind) {
    case 'corrupt-file':
      if (issue.recordKind === 'config') return `${issue.location} ${issue.detail}: the team is unreadable (team list names it; no command can use it). mailroom will not overwrite it; repair keeps it aside and rebuilds the roster from the team's journal, member records and inboxes.`;
      if (issue.recordKind === 'settings') return `${issue.location} ${issue.detail}: the team's settings (policy, signing, limits) cannot be read, so every send and policy change of the team fails. mailroom will not overwrite it, and repair does not move it aside (the team would run open and unsigned): restore it by hand.`;
      if (issue.recordKind === 'path-leases') return `${issue.location} ${issue.detail}: the team's path leases cannot be read, so every lease command fails. mailroom will not overwrite it; repair moves it aside (the leases in it are dropped: their holders acquire them again).`;
      return `${issue.location} ${issue.detail}. mailroom will not overwrite it; repair moves it aside.`;
    case 'missing-config':
      return `${issue.location} ${issue.detail}: team ${issue.team} is unreadable (no command can see the team${/holds no inbox/.test(issue.detail) ? '' : ', though its mail is there'}). Repair rebuilds the roster from the team's journal, member records and inboxes.`;
    case 'temp-file':
      return issue.removable
        ? `Temporary file ${issue.location} (${issue.bytes} bytes, ${age(issue.ageMs)} old) was left by a writer killed before its rename.`
        : `Temporary file ${issue.location} (${issue.bytes} bytes, ${age(issue.ageMs)} old) belongs to a write that may be in progress (its file's lock is held); left alone.`;
    case 'stale-lock':
      return `Lock ${issue.location} has not been refreshed for ${age(issue.ageMs)}: its holder is gone (writers take it over after 10 s).`;
    case 'lock-leftover':
      return `${issue.location} is left over from an interrupted lock takeover (${age(issue.ageMs)} old).`;
    case 'server-setting':
      return `${issue.location}: ${issue.setting} is ${issue.value}: ${issue.detail} Fix: ${issue.fix}`;
    case 'name-too-long':
      return `Member "${issue.member.length > 40 ? `${issue.member.slice(0, 40)}…` : issue.member}" of team ${issue.team} has a name of ${issue.member.length} characters (${issue.bytes} bytes as a file name, more than ${issue.limit}): no inbox file can carry it, so it cannot be sent to or read (NAME_TOO_LONG). Rename it in ${issue.location}.`;
    case 'inbox-collision':
      return `Members ${issue.members.map((m) => `"${m}"`).join(' and ')} of team ${issue.team} share one inbox file, ${issue.location} (Claude Code's file-name rule maps both names to it): each would read the other's messages. Rename all but one.`;
    case 'orphan-task-list':
      return `Task list ${issue.location} (${issue.tasks} task${issue.tasks === 1 ? '' : 's'}, unchanged for ${age(issue.ageMs)}) belongs to no team: Claude Code 2.1.332 leaves a session's task list behind when it removes the team. Repair moves it to <root>/mailroom/leftovers/tasks/ (never deletes it).`;
  }
}

/** `850 ms`, `12 s`, `4 min`, `3 h`. */
function age(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 3_600_000)} h`;
}
