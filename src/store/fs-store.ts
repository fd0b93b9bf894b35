/**
 * The filesystem backend of {@link Store}: Claude Code's Agent Teams layout under one root
 * (`<root>/teams`, `<root>/tasks`), with Claude Code–compatible locks and atomic writes.
 */
import type { TeamConfig } from '../protocol/config.js';
import type { InboxEntry } from '../protocol/inbox.js';
import type { Task } from '../protocol/task.js';
import type { ProcessRecord } from '../protocol/process.js';
import type { CommandRecord } from '../protocol/command.js';
import type { LockOptions } from './lock.js';
import { Layout } from './paths.js';
import type { JournalEvent } from '../protocol/journal.js';
import type { AgentLog, InboxAppendOptions, JournalRead, LockedTaskList, Store, StoreChange, TeamRef, TeamRemoval, WatchHandle } from './store.js';
import type { FsContext } from './fs/context.js';
import * as inboxes from './fs/inboxes.js';
import * as health from './fs/health-repair.js';
import { scanHealth } from './fs/health-scan.js';
import type { StoreIssue, StoreRepair } from './health.js';
import * as processes from './fs/processes.js';
import * as commands from './fs/commands.js';
import * as journal from './fs/journal.js';
import * as tasks from './fs/tasks.js';
import * as teams from './fs/teams.js';
import { watchTeam } from './fs/watch.js';
import * as memberRecords from './fs/member-records.js';
import type { MemberRecord } from '../protocol/member-record.js';

/** Options of {@link FsStore}. */
export interface FsStoreOptions extends LockOptions {}

/** Store over a directory in Claude Code's format. Cheap to construct; holds no open handles. */
export class FsStore implements Store {
  /** Path layout of this root. */
  readonly layout: Layout;
  private readonly ctx: FsContext;

  constructor(root: string, options: FsStoreOptions = {}) {
    this.layout = new Layout(root);
    this.ctx = { layout: this.layout, lock: options };
  }

  get root(): string {
    return this.layout.root;
  }

  listTeams(): Promise<TeamRef[]> {
    return teams.listTeams(this.ctx);
  }
  teamRemoval(team: string): Promise<TeamRemoval | undefined> {
    return teams.teamRemoval(this.ctx, team);
  }
  readConfig(team: string): Promise<TeamConfig> {
    return teams.readConfig(this.ctx, team);
  }
  createTeam(config: TeamConfig): Promise<void> {
    return teams.createTeam(this.ctx, config);
  }
  updateConfig<T>(team: string, change: (config: TeamConfig) => T | Promise<T>): Promise<T> {
    return teams.updateConfig(this.ctx, team, change);
  }
  deleteTeam(team: string): Promise<void> {
    return teams.deleteTeam(this.ctx, team);
  }

  readInbox(team: string, agent: string): Promise<InboxEntry[]> {
    return inboxes.readInbox(this.ctx, team, agent);
  }
  appendToInbox(team: string, agent: string, entries: InboxEntry[], options?: InboxAppendOptions): Promise<InboxEntry[]> {
    return inboxes.appendToInbox(this.ctx, team, agent, entries, options);
  }
  readInboxArchive(team: string, agent: string): Promise<InboxEntry[]> {
    return inboxes.readInboxArchive(this.ctx, team, agent);
  }
  archiveInbox(team: string, agent: string): Promise<number> {
    return inboxes.archiveInbox(this.ctx, team, agent);
  }
  updateInbox<T>(team: string, agent: string, change: (entries: InboxEntry[]) => T | Promise<T>): Promise<T> {
    return inboxes.updateInbox(this.ctx, team, agent, change);
  }
  listInboxes(team: string): Promise<string[]> {
    return inboxes.listInboxes(this.ctx, team);
  }
  moveInboxAside(team: string, agent: string): Promise<string | undefined> {
    return health.moveInboxAside(this.ctx, team, agent);
  }

  listTasks(team: string): Promise<Task[]> {
    return tasks.listTasks(this.ctx, team);
  }
  readTask(team: string, id: string, options?: { strict?: boolean }): Promise<Task | undefined> {
    return tasks.readTask(this.ctx, team, id, options);
  }
  updateTask<T>(team: string, id: string, change: (task: Task) => T | Promise<T>): Promise<T> {
    return tasks.updateTask(this.ctx, team, id, change);
  }
  withTaskList<T>(team: string, fn: (list: LockedTaskList) => Promise<T>): Promise<T> {
    return tasks.withTaskList(this.ctx, team, fn);
  }
  readHighWatermark(team: string): Promise<number> {
    return tasks.readHighWatermark(this.ctx, team);
  }

  watch(team: string, listener: (change: StoreChange) => void): Promise<WatchHandle> {
    return watchTeam(this.ctx, team, listener);
  }

  scanHealth(): Promise<StoreIssue[]> {
    return scanHealth(this.ctx);
  }
  repairHealth(issue: StoreIssue): Promise<StoreRepair> {
    return health.repairHealth(this.ctx, issue);
  }

  appendJournal(team: string, events: readonly JournalEvent[]): Promise<void> {
    return journal.appendJournal(this.ctx, team, events);
  }
  readJournal(team: string, options?: { since?: number }): Promise<JournalRead> {
    return journal.readJournal(this.ctx, team, options);
  }

  readProcessRecord(team: string, agent: string): Promise<ProcessRecord | undefined> {
    return processes.readProcessRecord(this.ctx, team, agent);
  }
  writeProcessRecord(team: string, agent: string, record: ProcessRecord): Promise<void> {
    return processes.writeProcessRecord(this.ctx, team, agent, record);
  }
  claimProcessRecord(team: string, agent: string, record: ProcessRecord, isStale: (current: ProcessRecord) => Promise<boolean>): Promise<ProcessRecord | undefined> {
    return processes.claimProcessRecord(this.ctx, team, agent, record, isStale);
  }
  deleteProcessRecord(team: string, agent: string): Promise<void> {
    return processes.deleteProcessRecord(this.ctx, team, agent);
  }
  openAgentLog(team: string, agent: string): Promise<AgentLog> {
    return processes.openAgentLog(this.ctx, team, agent);
  }
  readAgentLog(team: string, agent: string, options?: { from?: number; maxBytes?: number }): Promise<string> {
    return processes.readAgentLog(this.ctx, team, agent, options);
  }

  readMemberRecord(team: string, name: string): Promise<MemberRecord | undefined> {
    return memberRecords.readMemberRecord(this.ctx, team, name);
  }
  writeMemberRecord(record: MemberRecord): Promise<void> {
    return memberRecords.writeMemberRecord(this.ctx, record);
  }
  deleteMemberRecord(team: string, name: string): Promise<void> {
    return memberRecords.deleteMemberRecord(this.ctx, team, name);
  }
  listMemberRecords(team: string): Promise<MemberRecord[]> {
    return memberRecords.listMemberRecords(this.ctx, team);
  }

  writeCommandRecord(record: CommandRecord): Promise<void> {
    return commands.writeCommandRecord(this.ctx, record);
  }
  deleteCommandRecord(team: string, pid: number): Promise<void> {
    return commands.deleteCommandRecord(this.ctx, team, pid);
  }
  listCommandRecords(team?: string): Promise<CommandRecord[]> {
    return commands.listCommandRecords(this.ctx, team);
  }
}
