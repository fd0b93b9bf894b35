/**
 * The filesystem backend of {@link Store}: Claude Code's Agent Teams layout under one root
 * (`<root>/teams`, `<root>/tasks`), with Claude Code–compatible locks and atomic writes.
 */
import type { TeamConfig } from '../protocol/config.js';
import type { InboxEntry } from '../protocol/inbox.js';
import type { Task } from '../protocol/task.js';
import type { LockOptions } from './lock.js';
import { Layout } from './paths.js';
import type { LockedTaskList, Store, StoreChange, TeamRef, WatchHandle } from './store.js';
import type { FsContext } from './fs/context.js';
import * as inboxes from './fs/inboxes.js';
import * as tasks from './fs/tasks.js';
import * as teams from './fs/teams.js';
import { watchTeam } from './fs/watch.js';

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
  appendToInbox(team: string, agent: string, entries: InboxEntry[]): Promise<InboxEntry[]> {
    return inboxes.appendToInbox(this.ctx, team, agent, entries);
  }
  updateInbox<T>(team: string, agent: string, change: (entries: InboxEntry[]) => T | Promise<T>): Promise<T> {
    return inboxes.updateInbox(this.ctx, team, agent, change);
  }
  listInboxes(team: string): Promise<string[]> {
    return inboxes.listInboxes(this.ctx, team);
  }

  listTasks(team: string): Promise<Task[]> {
    return tasks.listTasks(this.ctx, team);
  }
  readTask(team: string, id: string): Promise<Task | undefined> {
    return tasks.readTask(this.ctx, team, id);
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
}
