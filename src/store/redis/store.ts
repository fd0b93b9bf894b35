/**
 * {@link RedisTeamStore}: the team store on Redis 7 (docs/format.md "Redis store"). Every
 * mutating method is one Lua script (./lua/, one file per transition) that validates, applies,
 * journals its events to the team's stream and publishes its hints in one atomic step; this
 * class only marshals arguments and parses replies. Machine-local state is not here: it stays in
 * the host store of the machine that runs the process.
 */
import type { Member, TeamConfig } from '../../protocol/config.js';
import type { TeamEventRecord } from '../../protocol/events.js';
import type { InboxEntry } from '../../protocol/inbox.js';
import type { MemberRecord } from '../../protocol/member-record.js';
import type { SettingsPatch, TeamSettings } from '../../protocol/settings.js';
import type { SettingsChange } from '../../domain/settings.js';
import * as settings from './settings.js';
import * as pathLeases from './path-leases.js';
import type { PathLease } from '../../protocol/path-lease.js';
import type { AcquireRequest, ReleaseRequest } from '../../domain/path-leases.js';
import { refusedEvent, type Refusal } from '../../domain/events.js';
import type { Task, TaskStatus } from '../../protocol/task.js';
import type { StoreIssue, StoreRepair } from '../health.js';
import type { StoreSelection } from '../selection.js';
import type * as T from '../team-store.js';
import type { RedisConnection } from './connection.js';
import type { RedisContext } from './context.js';
import * as claims from './claims.js';
import * as events from './events.js';
import { importTeam } from './import.js';
import { scanServerSettings } from './server-health.js';
import { scanDefaultUser } from './default-user.js';
import { applyGrant, type TeamGrant } from './acl.js';
import { readInboxChanges } from './inbox-changes.js';
import * as inboxes from './inboxes.js';
import * as members from './members.js';
import * as deadLetters from './dead-letters.js';
import type { DeadLetter } from '../../domain/dead-letters.js';
import * as tasks from './tasks.js';
import * as teams from './teams.js';
import { Watcher } from './watch.js';
import { InboxLooks } from './inbox-looks.js';
import { AppendBatcher } from './append-batcher.js';

/** The team store on Redis. Open it with `openRedisTeamStore` (./index.ts). */
export class RedisTeamStore implements T.TeamStore {
  private readonly rc: RedisContext;
  private readonly watcher: Watcher;
  private readonly appends: AppendBatcher;
  private readonly looks: InboxLooks;

  constructor(
    readonly selection: Extract<StoreSelection, { kind: 'redis' }>,
    private readonly conn: RedisConnection,
  ) {
    this.rc = { conn, location: conn.location, known: new Map() };
    this.appends = new AppendBatcher((team, messages, options) => inboxes.appendRows(this.rc, team, messages, options));
    this.watcher = new Watcher(conn, async (team) => (await inboxes.listInboxes(this.rc, team)).map((i) => i.name));
    this.looks = new InboxLooks(this.watcher);
  }

  /** The connection (for server checks made at open). */
  get connection(): RedisConnection {
    return this.conn;
  }

  /** The URL without its password. */
  get location(): string {
    return this.conn.location;
  }

  listTeams(): Promise<T.TeamRef[]> {
    return teams.listTeams(this.rc);
  }

  /** None: a Redis config is written only by the store's scripts, whole. */
  unreadableTeams(): Promise<T.UnreadableTeam[]> {
    return Promise.resolve([]);
  }
  async readConfig(team: string): Promise<TeamConfig> {
    return teams.configOf(await teams.readTeam(this.rc, team));
  }
  /** See {@link T.TeamStore.keepsViews}. */
  readonly keepsViews = true as const;
  /** See {@link T.TeamStore.takesCarryViewStamps}: every take's reply carries its step's stamp. */
  readonly takesCarryViewStamps = true as const;
  viewStamp(team: string): Promise<string> {
    return teams.readViewStamp(this.rc, team);
  }
  createTeam(config: TeamConfig, ctx?: T.OpContext): Promise<T.Transition<TeamConfig>> {
    return teams.createTeam(this.rc, config, ctx);
  }
  deleteTeam(team: string, ctx?: T.OpContext): Promise<T.Transition<T.DeletedTeam>> {
    return teams.deleteTeam(this.rc, team, ctx);
  }
  /** Always undefined: the clients that remove a team by tombstone (Claude Code) write files, never this store. */
  teamRemoval(_team: string): Promise<T.TeamRemoval | undefined> {
    return Promise.resolve(undefined);
  }
  listDeletedTeams(team?: string): Promise<T.DeletedTeam[]> {
    return teams.listDeletedTeams(this.rc, team);
  }
  restoreTeam(id: string, ctx?: T.OpContext): Promise<T.Transition<TeamConfig>> {
    return teams.restoreTeam(this.rc, id, ctx);
  }
  importTeam(image: T.TeamImage, ctx?: T.OpContext): Promise<T.Transition<TeamConfig>> {
    return importTeam(this.rc, image, ctx);
  }

  addMember(team: string, member: Member, options?: T.AddMemberOptions): Promise<T.Transition<Member>> {
    return members.addMember(this.rc, team, member, options);
  }
  updateMember(team: string, name: string, patch: T.MemberPatch, ctx?: T.OpContext): Promise<T.Transition<Member>> {
    return members.updateMember(this.rc, team, name, patch, ctx);
  }
  removeMember(team: string, nameOrAgentId: string, ctx?: T.OpContext): Promise<T.Transition<T.RemovedMember | undefined>> {
    return members.removeMember(this.rc, team, nameOrAgentId, ctx);
  }

  deadLetterInbox(team: string, member: string, ctx?: T.OpContext): Promise<T.Transition<DeadLetter[]>> {
    return deadLetters.deadLetterInbox(this.rc, team, member, ctx);
  }
  listDeadLetters(team: string): Promise<DeadLetter[]> {
    return deadLetters.listDeadLetters(this.rc, team);
  }
  removeDeadLetter(team: string, id: string): Promise<T.Transition<DeadLetter | undefined>> {
    return deadLetters.removeDeadLetter(this.rc, team, id);
  }
  redeliverDeadLetters(team: string, member: string, ctx?: T.OpContext): Promise<T.Transition<DeadLetter[]>> {
    return deadLetters.redeliverDeadLetters(this.rc, team, member, ctx);
  }

  readMemberRecords(team: string): Promise<MemberRecord[]> {
    return members.readMemberRecords(this.rc, team);
  }

  async recordRefusal(team: string, refusal: Refusal, ctx?: T.OpContext): Promise<T.Transition<void>> {
    // One XADD of the whole event (record-observed.lua journals events as given), after the team check.
    const event = refusedEvent({ team, at: ctx?.now ?? Date.now(), source: 'mailroom', actor: ctx?.actor }, refusal);
    await events.recordObserved(this.rc, team, [event]);
    return { value: undefined, events: [event] };
  }

  listPathLeases(team: string, ctx?: T.OpContext): Promise<T.Transition<PathLease[]>> {
    return pathLeases.listPathLeases(this.rc, this, team, ctx);
  }
  acquirePathLease(team: string, req: AcquireRequest, ctx?: T.OpContext): Promise<T.Transition<PathLease>> {
    return pathLeases.acquirePathLease(this.rc, this, team, req, ctx);
  }
  releasePathLeases(team: string, req: ReleaseRequest, ctx?: T.OpContext): Promise<T.Transition<PathLease[]>> {
    return pathLeases.releasePathLeases(this.rc, this, team, req, ctx);
  }
  readSettings(team: string): Promise<TeamSettings> {
    return settings.readSettings(this.rc, team);
  }
  updateSettings(team: string, patch: SettingsPatch, ctx?: T.OpContext): Promise<T.Transition<SettingsChange>> {
    return settings.updateSettings(this.rc, team, patch, ctx);
  }

  appendMessages(team: string, messages: readonly T.OutgoingMessage[], options?: T.AppendOptions): Promise<T.Transition<T.AppendResult>> {
    return this.appends.append(team, messages, options);
  }
  readAppended(team: string, idempotencyKey: string): Promise<T.StoredMessage[] | undefined> {
    return inboxes.readAppended(this.rc, team, idempotencyKey);
  }
  readInbox(team: string, member: string): Promise<InboxEntry[]> {
    return inboxes.readInbox(this.rc, team, member);
  }
  readInboxChanges(team: string, member: string, since?: T.InboxMark): Promise<T.InboxChanges> {
    return readInboxChanges(this.rc, team, member, since);
  }
  readInboxHistory(team: string, member: string): Promise<T.InboxHistory> {
    return inboxes.readInboxHistory(this.rc, team, member);
  }
  listInboxes(team: string): Promise<T.InboxRef[]> {
    return inboxes.listInboxes(this.rc, team);
  }
  takeUnread(team: string, member: string, options: T.TakeOptions): Promise<T.Transition<T.Lease>> {
    return this.looks.during(team, member, () => inboxes.takeUnread(this.rc, team, member, options));
  }
  /** See {@link T.TeamStore.watchInboxLooks}: the looks the appends publish on the member's own channel (./inbox-looks.ts). */
  watchInboxLooks(team: string, member: string): Promise<T.WatchHandle> {
    return this.looks.watch(team, member);
  }
  /** See {@link T.TeamStore.hintedLook}. */
  hintedLook(team: string, member: string): T.UnreadLook | undefined {
    return this.looks.take(team, member);
  }
  acknowledge(team: string, member: string, leaseId: string, options?: T.AcknowledgeOptions): Promise<T.Transition<number>> {
    return inboxes.acknowledge(this.rc, team, member, leaseId, options);
  }
  release(team: string, member: string, leaseId: string, ctx?: T.OpContext): Promise<T.Transition<number>> {
    return inboxes.release(this.rc, team, member, leaseId, ctx);
  }
  markRead(team: string, member: string, keys: readonly string[], ctx?: T.OpContext): Promise<T.Transition<number>> {
    return inboxes.markRead(this.rc, team, member, keys, ctx);
  }
  archiveInbox(team: string, member: string, options?: T.ArchiveOptions): Promise<T.Transition<number>> {
    // No trigger on Redis: an append costs the same whatever the history (T.ArchiveOptions).
    if (options?.pastTrigger) return Promise.resolve({ value: 0, events: [] });
    return inboxes.archiveInbox(this.rc, team, member, options?.onlyKeys);
  }
  setInboxAside(team: string, name: string): Promise<T.Transition<string | undefined>> {
    return inboxes.setInboxAside(this.rc, team, name);
  }

  listTasks(team: string): Promise<Task[]> {
    return tasks.listTasks(this.rc, team);
  }
  readTask(team: string, id: string, options?: { strict?: boolean }): Promise<Task | undefined> {
    return tasks.readTask(this.rc, team, id, options);
  }
  readHighWatermark(team: string): Promise<string> {
    return tasks.readHighWatermark(this.rc, team);
  }
  createTask(team: string, draft: T.TaskDraft, options?: T.CreateTaskOptions): Promise<T.Transition<T.CreatedTask>> {
    return tasks.createTask(this.rc, team, draft, options);
  }
  claimTask(team: string, request: T.ClaimRequest, ctx?: T.OpContext): Promise<T.Transition<Task | undefined>> {
    return tasks.claimTask(this.rc, team, request, ctx);
  }
  patchTask(team: string, id: string, patch: T.TaskPatch, ctx?: T.OpContext): Promise<T.Transition<T.PatchedTask>> {
    return tasks.patchTask(this.rc, team, id, patch, ctx);
  }
  linkTasks(team: string, edges: readonly T.TaskEdge[], ctx?: T.OpContext): Promise<T.Transition<Task[]>> {
    return tasks.linkTasks(this.rc, team, edges, ctx);
  }
  unlinkTasks(team: string, edges: readonly T.TaskEdge[], ctx?: T.OpContext): Promise<T.Transition<Task[]>> {
    return tasks.unlinkTasks(this.rc, team, edges, ctx);
  }
  deleteTask(team: string, id: string, ctx?: T.OpContext): Promise<T.Transition<Task>> {
    return tasks.deleteTask(this.rc, team, id, ctx);
  }
  putTask(team: string, task: Task, ctx?: T.PutTaskOptions): Promise<T.Transition<Task>> {
    return tasks.putTask(this.rc, team, task, ctx);
  }
  unassignTasks(team: string, owner: string, options?: T.UnassignOptions): Promise<T.Transition<Task[]>> {
    return tasks.unassignTasks(this.rc, team, owner, options);
  }

  claimReader(team: string, member: string, holder: T.ReaderHolder, options?: T.ClaimReaderOptions): Promise<T.Transition<T.ReaderClaim>> {
    return claims.claimReader(this.rc, team, member, holder, options);
  }
  beat(team: string, member: string, token: string, state: T.ReaderClaim['state'], ctx?: T.OpContext): Promise<T.Transition<T.ReaderClaim>> {
    return claims.beat(this.rc, team, member, token, state, ctx);
  }
  releaseReader(team: string, member: string, token: string, ctx?: T.OpContext): Promise<T.Transition<void>> {
    return claims.releaseReader(this.rc, team, member, token, ctx);
  }
  readClaims(team: string): Promise<T.ReaderClaim[]> {
    return claims.readClaims(this.rc, team);
  }
  readClock(team: string): Promise<number> {
    return claims.readClock(this.rc, team);
  }

  /** Inboxes are keyed by the exact member name: every member has its own. */
  async inboxlessMembers(team: string): Promise<T.InboxlessMember[]> {
    await this.readConfig(team);
    return [];
  }

  readEvents(team: string, options?: { since?: T.Cursor | undefined; limit?: number | undefined }): Promise<T.EventPage> {
    return events.readEvents(this.rc, team, options);
  }
  recordObserved(team: string, observed: readonly TeamEventRecord[]): Promise<void> {
    return events.recordObserved(this.rc, team, observed);
  }
  watch(team: string, listener: (hint: T.StoreHint) => void, options?: T.WatchOptions): Promise<T.WatchHandle> {
    // Beats are published on the team's one channel: a watcher that wants no claims drops them here.
    return this.watcher.watch(team, options?.claims === false ? (hint) => hint.kind !== 'claims' && listener(hint) : listener);
  }

  /**
   * Redis keeps no files to go corrupt or half-written (scripts are atomic); what can go wrong is
   * the server's configuration (no AOF, an eviction policy: server-health.ts; an open default
   * user: default-user.ts).
   */
  async scanHealth(): Promise<StoreIssue[]> {
    return [...(await scanServerSettings(this.conn)), ...(await scanDefaultUser(this.conn))];
  }
  /** Server settings are their operator's to change: never repaired, the note says how. */
  async repairHealth(issue: StoreIssue): Promise<StoreRepair> {
    if (issue.kind === 'server-setting') return { done: false, note: `mailroom does not change the server's configuration: ${issue.fix}`, bytesFreed: 0 };
    return { done: true, note: 'The Redis store has nothing to repair.', bytesFreed: 0 };
  }

  /** Creates the ACL user of `grant` on this server (`mailroom store grant`, ./acl.ts). @throws NOT_PERMITTED, STORE_UNAVAILABLE */
  grant(grant: TeamGrant): Promise<void> {
    return applyGrant(this.conn, grant);
  }

  async close(): Promise<void> {
    await this.watcher.close();
    await this.conn.close();
  }
}
