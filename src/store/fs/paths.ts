/**
 * Every path of the on-disk layout (reference §1, docs/format.md §1). Only the filesystem store
 * (src/store/fs/) uses it; nothing else in mailroom builds a path into the store. For a team whose name is valid under the mailroom rules, every sanitiser returns the name
 * unchanged; for other (Claude Code–made) names, config and inboxes may live in different dirs.
 */
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fittingPart, pathPart, taskListId, teamDirName } from './names.js';

/** The name of a team's settings file in its team directory (policy, signing, limits). */
export const SETTINGS_FILE = 'mailroom-settings.json';
/** The name of a team's path-lease file in its team directory (docs/leases.md). */
export const PATH_LEASES_FILE = 'mailroom-path-leases.json';

/** Paths of one store root (`<root>/teams`, `<root>/tasks`). */
export class Layout {
  /** Absolute root directory. */
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** `<root>/teams`. */
  get teamsDir(): string {
    return join(this.root, 'teams');
  }

  /** `<root>/tasks`. */
  get tasksRoot(): string {
    return join(this.root, 'tasks');
  }

  /** Directory holding config.json (lowercasing sanitiser). */
  teamDir(team: string): string {
    return join(this.teamsDir, fittingPart('team', team, teamDirName(team)));
  }

  /** `teams/<teamDir>/config.json`. */
  configPath(team: string): string {
    return join(this.teamDir(team), 'config.json');
  }

  /** Directory of inbox files (case-keeping sanitiser). */
  inboxDir(team: string): string {
    return join(this.teamsDir, fittingPart('team', team, pathPart(team)), 'inboxes');
  }

  /** `teams/<inboxTeam>/inboxes/<agent>.json`. */
  inboxPath(team: string, agent: string): string {
    return join(this.inboxDir(team), `${fittingPart('member', agent, pathPart(agent))}.json`);
  }

  /** `tasks/<listId>`. */
  taskDir(team: string): string {
    return join(this.tasksRoot, fittingPart('team', team, taskListId(team)));
  }

  /** `tasks/<listId>/<id>.json`. */
  taskPath(team: string, id: string): string {
    return join(this.taskDir(team), `${id}.json`);
  }

  /** `tasks/<listId>/.lock`: the empty anchor of the list-wide lock. */
  listLockAnchor(team: string): string {
    return join(this.taskDir(team), '.lock');
  }

  /** `tasks/<listId>/.highwatermark`: the highest task id ever used, as decimal text. */
  highWatermarkPath(team: string): string {
    return join(this.taskDir(team), '.highwatermark');
  }

  /**
   * `<root>/mailroom/archive/<inboxTeam>/<agent>.ndjson`: read entries moved out of an inbox
   * (docs/format.md "Inbox archive"), outside the directories Claude Code reads, globs and deletes.
   */
  inboxArchivePath(team: string, agent: string): string {
    return join(this.inboxArchiveDir(team), `${fittingPart('member', agent, pathPart(agent))}.ndjson`);
  }

  /** `teams/<teamDir>/processes`. */
  processRecordDir(team: string): string {
    return join(this.teamDir(team), 'processes');
  }

  /** `teams/<teamDir>/processes/<agent>.json`: mailroom's pid record of a process-backend teammate. */
  processRecordPath(team: string, agent: string): string {
    return join(this.teamDir(team), 'processes', `${fittingPart('member', agent, pathPart(agent))}.json`);
  }

  /** `teams/<teamDir>/mailroom-settings.json`: mailroom's team settings (policy, signing); Claude Code never reads it. */
  settingsPath(team: string): string {
    return join(this.teamDir(team), SETTINGS_FILE);
  }

  /** `teams/<teamDir>/mailroom-path-leases.json`: the team's advisory path leases (docs/leases.md); Claude Code never reads it. */
  pathLeasesPath(team: string): string {
    return join(this.teamDir(team), PATH_LEASES_FILE);
  }

  /** `<root>/mailroom/keys/<team>.key`: the team's signing key on this machine (mode 0600; docs/approvals.md "Signed teams"). */
  teamKeyPath(team: string): string {
    return join(this.root, 'mailroom', 'keys', `${pathPart(team)}.key`);
  }

  /** `<root>/mailroom/keys/<team>/`: this machine's identity files of a signed team (src/protocol/identity-files.ts). */
  identityDir(team: string): string {
    return join(this.root, 'mailroom', 'keys', fittingPart('team', team, pathPart(team)));
  }

  /** `<root>/mailroom/keys/<team>/<member>.key.json`: a member's key pair on this machine (mode 0600). */
  memberKeyPath(team: string, member: string): string {
    return join(this.identityDir(team), `${fittingPart('member', member, pathPart(member))}.key.json`);
  }

  /** `<root>/mailroom/keys/<team>/lead-pin.json`: the lead keys this machine trusts. */
  leadPinPath(team: string): string {
    return join(this.identityDir(team), 'lead-pin.json');
  }

  /** `<root>/mailroom/keys/<team>/<member>.obeyed.json`: control messages the member's reader obeyed. */
  obeyedPath(team: string, member: string): string {
    return join(this.identityDir(team), `${fittingPart('member', member, pathPart(member))}.obeyed.json`);
  }

  /** `<root>/mailroom/keys/<team>/<member>.seen.json`: signed plain messages the member's reader consumed. */
  seenPath(team: string, member: string): string {
    return join(this.identityDir(team), `${fittingPart('member', member, pathPart(member))}.seen.json`);
  }

  /** `teams/<teamDir>/hooks.json`: the team's hooks on this machine (docs/approvals.md "Hooks"). */
  hooksPath(team: string): string {
    return join(this.teamDir(team), 'hooks.json');
  }

  /** `teams/<teamDir>/logs/<agent>.log`: stdout and stderr of a process-backend teammate. */
  agentLogPath(team: string, agent: string): string {
    return join(this.teamDir(team), 'logs', `${fittingPart('member', agent, pathPart(agent))}.log`);
  }

  /**
   * `<root>/mailroom/commands`: records of running teammate commands, one directory per team
   * (docs/format.md "Command records"). Not under `teams/<team>/`, which `team delete` and Claude
   * Code's TeamDelete remove: a record must outlive its team until its command is reaped.
   */
  get commandsDir(): string {
    return join(this.root, 'mailroom', 'commands');
  }

  /**
   * `<root>/mailroom/transcripts/<team>/<agent>.ndjson`: an LLM member's conversation on this machine
   * (docs/runtime.md "Transcripts"); outside `teams/<team>/`, which Claude Code removes at session end.
   */
  transcriptPath(team: string, agent: string): string {
    return join(this.root, 'mailroom', 'transcripts', pathPart(team), `${fittingPart('member', agent, pathPart(agent))}.ndjson`);
  }

  /** `<root>/mailroom/notes/<hash>`: the note of a once-per-period notice (HostStore.firstInPeriod), its mtime the last time shown; `<hash>`: 24 hex digits of the key's SHA-256. */
  notePath(key: string): string {
    return join(this.root, 'mailroom', 'notes', createHash('sha256').update(key).digest('hex').slice(0, 24));
  }

  /** `<root>/mailroom/bridge/<team>.json`: the saved state of this machine's `mailroom bridge` of the team. */
  bridgeStatePath(team: string): string {
    return join(this.root, 'mailroom', 'bridge', `${pathPart(team)}.json`);
  }

  /** Lines appended to the bridge's state since it was last written whole (`<team>.log.ndjson` beside it). */
  bridgeStateLogPath(team: string): string {
    return join(this.root, 'mailroom', 'bridge', `${pathPart(team)}.log.ndjson`);
  }

  /** The running bridge's process record (one bridge per root and team, issue 21). */
  bridgeRecordPath(team: string): string {
    return join(this.root, 'mailroom', 'bridge', `${pathPart(team)}.pid.json`);
  }

  /** `<root>/mailroom/commands/<team>` (case-keeping sanitiser). */
  commandRecordDir(team: string): string {
    return join(this.commandsDir, fittingPart('team', team, pathPart(team)));
  }

  /** `<root>/mailroom/commands/<team>/<pid>.json`: the record of the command whose `sh` has this pid. */
  commandRecordPath(team: string, pid: number): string {
    return join(this.commandRecordDir(team), `${pid}.json`);
  }

  /**
   * `<root>/mailroom/journal`: mailroom's own files live under `<root>/mailroom/`, outside the
   * inbox and task-list directories, which Claude Code globs and deletes.
   */
  get journalDir(): string {
    return join(this.root, 'mailroom', 'journal');
  }

  /**
   * `<root>/mailroom/deleted/<team>-<stamp>`: where `team delete` moves the team's journal and inbox
   * archive, so a team re-created under the same name starts with an empty history.
   */
  deletedTeamDir(team: string, stamp: string): string {
    return join(this.root, 'mailroom', 'deleted', `${fittingPart('team', team, pathPart(team))}-${stamp}`);
  }

  /** `<root>/mailroom/deleted`: teams moved aside by `team delete` (restorable). */
  get deletedRoot(): string {
    return join(this.root, 'mailroom', 'deleted');
  }

  /**
   * `<root>/mailroom/leases/<inboxTeam>/<agent>.json`: the leases of one inbox (entries handed out
   * and not yet acknowledged), written under the inbox's own lock. Claude Code never reads it.
   */
  leasePath(team: string, agent: string): string {
    return join(this.leaseDir(team), `${fittingPart('member', agent, pathPart(agent))}.json`);
  }

  /** `<root>/mailroom/leases/<inboxTeam>`. */
  leaseDir(team: string): string {
    return join(this.root, 'mailroom', 'leases', fittingPart('team', team, pathPart(team)));
  }

  /** `<root>/mailroom/readers/<inboxTeam>/<agent>.json`: the member's reader claim; its mtime is the last beat. */
  readerClaimPath(team: string, agent: string): string {
    return join(this.readerDir(team), `${fittingPart('member', agent, pathPart(agent))}.json`);
  }

  /** `<root>/mailroom/readers/<inboxTeam>`. */
  readerDir(team: string): string {
    return join(this.root, 'mailroom', 'readers', fittingPart('team', team, pathPart(team)));
  }

  /** `<root>/mailroom/idempotency/<inboxTeam>`: idempotency keys of appends and task creations. */
  idempotencyDir(team: string): string {
    return join(this.root, 'mailroom', 'idempotency', fittingPart('team', team, pathPart(team)));
  }

  /** `<root>/mailroom/members`: mailroom's member records, one directory per team. */
  get membersDir(): string {
    return join(this.root, 'mailroom', 'members');
  }

  /** `<root>/mailroom/members/<team>` (case-keeping sanitiser): mailroom's member records of the team. */
  memberRecordDir(team: string): string {
    return join(this.membersDir, fittingPart('team', team, pathPart(team)));
  }

  /** `<root>/mailroom/members/<team>/<agent>.json`: mailroom's own record of a member (docs/format.md "Member records"). */
  memberRecordPath(team: string, agent: string): string {
    return join(this.memberRecordDir(team), `${fittingPart('member', agent, pathPart(agent))}.json`);
  }

  /** `<root>/mailroom/archive/<inboxTeam>`: every archived inbox of the team. */
  inboxArchiveDir(team: string): string {
    return join(this.root, 'mailroom', 'archive', fittingPart('team', team, pathPart(team)));
  }

  /** `<root>/mailroom/dead-letters/<team>.json`: the team's dead letters (a JSON array; docs/format.md "Dead letters"). */
  deadLettersPath(team: string): string {
    return join(this.root, 'mailroom', 'dead-letters', `${fittingPart('team', team, pathPart(team))}.json`);
  }

  /** `<root>/mailroom/journal/<team>.ndjson` (case-keeping sanitiser): the team's append-only journal. */
  journalPath(team: string): string {
    return join(this.journalDir, `${fittingPart('team', team, pathPart(team))}.ndjson`);
  }
}

/** The directory proper-lockfile uses for a target: `<target>.lock`. */
export function lockDirFor(target: string): string {
  return `${target}.lock`;
}

/**
 * Resolves the store root: an explicit `--root`, else `$MAILROOM_ROOT`, else `~/.mailroom`;
 * with `claude` set, `$CLAUDE_CONFIG_DIR` or `~/.claude` (NFC-normalised, as Claude Code does).
 */
export function resolveRoot(options: { root?: string | undefined; claude?: boolean | undefined; env?: NodeJS.ProcessEnv }): string {
  const env = options.env ?? process.env;
  if (options.root !== undefined && options.root !== '') return resolve(options.root);
  if (options.claude) return resolve((env.CLAUDE_CONFIG_DIR || join(homedir(), '.claude')).normalize('NFC'));
  return resolve(env.MAILROOM_ROOT || join(homedir(), '.mailroom'));
}
