/**
 * Keeps a live picture of one team for `watch` and `log --follow`: loads everything once, then on
 * each {@link StoreHint} hint re-reads only what the hint names (one inbox, one task, the config)
 * and reports what changed. Messages gone from an inbox (Claude Code 2.1.332 deletes delivered
 * entries; mailroom archives read ones) stay in the picture as read (`removed`), and so do
 * messages only the journal or an inbox archive still knows.
 */
import { isMailroomError } from '../../errors.js';
import type { TeamConfig } from '../../protocol/config.js';
import type { TeamEventRecord } from '../../protocol/events.js';
import type { InboxEntry } from '../../protocol/inbox.js';
import type { MemberRecord } from '../../protocol/member-record.js';
import type { Task } from '../../protocol/task.js';
import { compareTaskIds } from '../../domain/task-board.js';
import type { ReaderClaim, StoreHint, TeamStore } from '../../store/team-store.js';
import { asTeamStore, teamOf, type StoreRef, type TeamOptions } from '../context.js';
import { diffSnapshots } from './tracker-diff.js';
import { JournalReader } from './journal-reader.js';
import { observedEvents } from './tracker-record.js';
import { buildSnapshot, type SnapshotProblem, type TeamEnd, type TeamSnapshot } from './snapshot.js';
import type { MailroomError } from '../../errors.js';
import type { TeamEvent } from './watch-events.js';
import { MessageBook } from './message-book.js';
import { recordObserved } from './journal-observed.js';
import { sharedInbox } from '../teams/team-lifecycle.js';

/** Options of {@link TeamTracker}. */
export interface TrackerOptions {
  /** Append what is on disk but not yet in the journal (`source: observed`). Default false. */
  record?: boolean;
  /** Clock for journal times (epoch ms). */
  now?: () => number;
}

/** Result of {@link TeamTracker.apply}. */
export interface TrackerUpdate {
  events: TeamEvent[];
  snapshot: TeamSnapshot;
  /** True when a file could not be read (e.g. caught mid-write): call `apply([])` again shortly. */
  retry: boolean;
}

/** An incrementally updated team picture; see the module comment. */
export class TeamTracker {
  private config: TeamConfig | undefined;
  private exists = false;
  private ended: TeamEnd | undefined;
  private tasks = new Map<string, Task>();
  private readonly departed = new Map<string, string | undefined>();
  private records = new Map<string, MemberRecord>();
  private claims: ReaderClaim[] = [];
  private readonly book = new MessageBook();
  private readonly journal: JournalReader;
  private pending: StoreHint[] = [];
  private cached: TeamSnapshot | undefined;
  private readonly store: TeamStore;
  /** Files that cannot be read now, by inbox name (a corrupt inbox is flagged, not fatal: issue 9 item 5). */
  private readonly problems = new Map<string, SnapshotProblem>();

  /** `store`: a filesystem root, opened stores, or a team store. */
  constructor(
    store: StoreRef | TeamStore,
    private readonly team: string,
    private readonly options: TrackerOptions = {},
  ) {
    this.store = asTeamStore(store);
    this.journal = new JournalReader(this.store, team);
  }

  /** Reads config, journal, every inbox and every task. @throws TEAM_NOT_FOUND, FILE_CORRUPT */
  async load(): Promise<TeamSnapshot> {
    this.config = await this.store.readConfig(this.team);
    this.exists = true;
    await this.readRecords();
    await this.readClaims();
    const removal = await this.store.teamRemoval(this.team);
    if (removal) this.ended = { location: removal.location };
    this.readJournalEvents(await this.journal.next());
    for (const issue of await this.store.inboxlessMembers(this.team).catch(() => [])) {
      if (issue.code === 'INBOX_SHARED') this.problems.set(issue.member, { code: issue.code, member: issue.member, message: sharedInbox(issue.member, issue.with).message, fix: 'mailroom doctor' });
    }
    const files = new Set((await this.store.listInboxes(this.team)).map((i) => i.name));
    const agents = new Set([...this.config.members.map((m) => m.name), ...files]);
    const [inboxes, tasks] = await Promise.all([
      Promise.all(
        [...agents].map(async (agent) => ({
          agent,
          archived: await this.readArchivedFlagged(agent),
          entries: files.has(agent) ? await this.readInboxFlagged(agent) : undefined,
        })),
      ),
      this.store.listTasks(this.team),
    ]);
    for (const { agent, archived, entries } of inboxes) {
      for (const entry of archived) this.book.addKnown(agent, entry);
      this.book.setInbox(agent, entries);
    }
    this.tasks = new Map(tasks.map((t) => [t.id, t]));
    await this.recordObserved({ config: true, tasks: [...this.tasks.keys(), ...this.journal.knownTaskIds()] });
    this.book.takeNew();
    return this.snapshot();
  }

  /** The current snapshot (rebuilt only after a change). */
  snapshot(): TeamSnapshot {
    this.cached ??= buildSnapshot({ team: this.team, config: this.config, exists: this.exists, ended: this.ended, messages: this.book.views(), tasks: [...this.tasks.values()], departed: this.departed, records: this.records, problems: [...this.problems.values()], claims: this.claims, now: (this.options.now ?? Date.now)() });
    return this.cached;
  }

  /** Re-reads what the hints name (plus hints that failed before), records and reports changes. */
  async apply(changes: readonly StoreHint[]): Promise<TrackerUpdate> {
    const before = this.snapshot();
    const work = [...this.pending, ...changes.filter((c) => c.kind === 'config' || c.kind === 'inbox' || c.kind === 'task' || c.kind === 'events')];
    this.pending = [];
    if (this.exists && changes.some((c) => c.kind === 'claims')) await this.readClaims();
    const configChanged = work.some((c) => c.kind === 'config');
    const beforeTasks = new Map(this.tasks);
    const events: TeamEvent[] = [];
    if (configChanged) await this.attempt({ kind: 'config', team: this.team }, () => this.reloadConfig(events));
    // Inboxes vanish with a removed team: they were not read, so their last state stays in the picture.
    for (const member of this.exists ? new Set(work.flatMap((c) => (c.kind === 'inbox' ? [c.member] : []))) : []) {
      await this.attempt({ kind: 'inbox', team: this.team, member }, async () => {
        try {
          this.book.setInbox(member, await this.readInboxIfAny(member));
          this.clearProblem(member);
        } catch (err) {
          if (isMailroomError(err, 'FILE_CORRUPT')) this.problems.set(member, inboxProblem(member, err));
          throw err;
        }
      });
    }
    const taskIds = await this.reloadTasks(work);
    this.readJournalEvents(await this.journal.next());
    await this.recordObserved({ config: configChanged, tasks: taskIds });
    this.cached = undefined;
    const after = this.snapshot();
    events.push(...diffSnapshots(before, after, beforeTasks, this.tasks, this.book.takeNew()));
    return { events, snapshot: after, retry: this.pending.length > 0 };
  }

  /** mailroom's member records of the team (how each member runs); none when they cannot be read. */
  private async readRecords(): Promise<void> {
    this.records = new Map((await this.store.readMemberRecords(this.team).catch(() => [])).map((r) => [r.name, r]));
  }

  /** Drops a read problem of `member` once its inbox reads (a shared inbox file stays flagged: it is the roster's doing). */
  private clearProblem(member: string): void {
    if (this.problems.get(member)?.code !== 'INBOX_SHARED') this.problems.delete(member);
  }

  /** The inbox's archived entries; a member no inbox file can be named for is flagged (NAME_TOO_LONG) and has none. */
  private async readArchivedFlagged(agent: string): Promise<InboxEntry[]> {
    try {
      return (await this.store.readInboxHistory(this.team, agent)).archived;
    } catch (err) {
      if (!isMailroomError(err, 'NAME_TOO_LONG')) throw err;
      this.problems.set(agent, inboxProblem(agent, err));
      return [];
    }
  }

  /** The inbox's valid entries; a corrupt inbox is flagged in the snapshot and read as absent. */
  private async readInboxFlagged(agent: string): Promise<InboxEntry[] | undefined> {
    try {
      const entries = await this.store.readInbox(this.team, agent);
      this.clearProblem(agent);
      return entries;
    } catch (err) {
      if (!isMailroomError(err, 'FILE_CORRUPT') && !isMailroomError(err, 'NAME_TOO_LONG')) throw err;
      this.problems.set(agent, inboxProblem(agent, err));
      return undefined;
    }
  }

  /** The team's reader claims (presence); none when they cannot be read. Presence is judged again at every apply (a claim dies with time, not with a write). */
  private async readClaims(): Promise<void> {
    this.claims = await this.store.readClaims(this.team).catch(() => []);
  }

  /** The inbox's valid entries, or undefined when it does not exist (an empty read is checked). */
  private async readInboxIfAny(member: string): Promise<InboxEntry[] | undefined> {
    const entries = await this.store.readInbox(this.team, member);
    if (entries.length > 0) return entries;
    return (await this.store.listInboxes(this.team)).some((i) => i.name === member) ? entries : undefined;
  }

  private async attempt(change: StoreHint, read: () => Promise<void>): Promise<void> {
    try {
      await read();
    } catch (err) {
      if (!isMailroomError(err, 'FILE_CORRUPT') && !isMailroomError(err, 'LOCK_TIMEOUT')) throw err;
      this.pending.push(change);
    }
  }

  private async reloadConfig(events: TeamEvent[]): Promise<void> {
    try {
      const config = await this.store.readConfig(this.team);
      if (!this.exists) events.push({ kind: 'team', action: 'restored' });
      for (const m of this.config?.members ?? []) if (!config.members.some((n) => n.name === m.name)) this.departed.set(m.name, m.agentId);
      for (const m of config.members) {
        this.departed.delete(m.name);
        if (!this.book.hasInbox(m.name)) this.book.setInbox(m.name, await this.readInboxIfAny(m.name));
      }
      this.config = config;
      this.exists = true;
      await this.readRecords();
    } catch (err) {
      // A config.json gone while inboxes remain is FILE_CORRUPT with details.missing to every
      // command (the team is unreadable, not free to create); to a watcher the config went away.
      const gone = isMailroomError(err, 'TEAM_NOT_FOUND') || (isMailroomError(err, 'FILE_CORRUPT') && err.details?.missing === true);
      if (!gone) throw err;
      if (this.exists) events.push(await this.removedEvent());
      this.exists = false;
    }
  }

  /**
   * The event for config.json vanishing. The removal is for good when Claude Code's tombstone of
   * the team is there, or the team was a Claude Code 2.1.332 session team (it has `leadProcess`):
   * such a team is removed when its session ends and never comes back under its name (its tombstone
   * may be gone already, the client removes it right after the rename).
   */
  private async removedEvent(): Promise<TeamEvent> {
    const removal = await this.store.teamRemoval(this.team);
    if (!removal && this.config?.leadProcess === undefined) return { kind: 'team', action: 'removed' };
    this.ended = removal ? { location: removal.location } : {};
    return { kind: 'team', action: 'removed', final: true, ...(removal ? { location: removal.location } : {}) };
  }

  /** Re-reads the hinted tasks (all of them for a hint without id); returns the ids looked at. */
  private async reloadTasks(work: readonly StoreHint[]): Promise<string[]> {
    const hints = work.flatMap((c) => (c.kind === 'task' ? [c.id] : []));
    if (hints.length === 0) return [];
    if (hints.includes(undefined)) {
      const before = [...this.tasks.keys()];
      this.tasks = new Map((await this.store.listTasks(this.team)).map((t) => [t.id, t]));
      return [...new Set([...before, ...this.tasks.keys()])];
    }
    const ids = [...new Set(hints as string[])];
    for (const id of ids) {
      const task = await this.store.readTask(this.team, id);
      if (task) this.tasks.set(id, task);
      else this.tasks.delete(id);
    }
    this.tasks = new Map([...this.tasks].sort(([a], [b]) => compareTaskIds(a, b)));
    return ids;
  }

  private readJournalEvents(events: readonly TeamEventRecord[]): void {
    for (const e of events) {
      if (e.kind === 'message') this.book.addKnown(e.to, e.entry);
      if (e.kind === 'member' && e.action === 'left' && !this.config?.members.some((m) => m.name === e.name)) this.departed.set(e.name, e.agentId);
    }
  }

  private async recordObserved(scope: { config: boolean; tasks: readonly string[] }): Promise<void> {
    if (!this.options.record) return;
    const now = (this.options.now ?? Date.now)();
    const events = observedEvents(this.journal, { team: this.team, now, config: scope.config ? this.config : undefined, exists: this.exists, tasks: this.tasks, taskIds: scope.tasks, messages: this.book.peekNew() });
    await recordObserved(this.store, this.team, events);
  }
}

/**
 * Reads a team once: roster with member states, task board, every known message (inboxes plus
 * journal). Records nothing. @throws TEAM_NOT_FOUND
 */
export async function snapshotTeam(options: TeamOptions): Promise<TeamSnapshot> {
  return new TeamTracker(teamOf(options), options.team, options.now ? { now: options.now } : {}).load();
}

/** The snapshot's flag for a corrupt inbox: its member, the file, the error and the command that repairs it. */
function inboxProblem(member: string, err: MailroomError): SnapshotProblem {
  const shown = member.length > 40 ? `${member.slice(0, 40)}…` : member;
  if (err.code === 'NAME_TOO_LONG') return { code: err.code, member, message: `${shown} cannot be served: ${err.message}`, fix: 'mailroom doctor' };
  const path = typeof err.details.path === 'string' ? err.details.path : undefined;
  return { code: 'FILE_CORRUPT', member, ...(path ? { path } : {}), message: `${shown}'s inbox cannot be read: ${err.message}`, fix: 'mailroom doctor --fix' };
}
