/**
 * The filesystem backend of {@link TeamStore}: Claude Code's Agent Teams layout under one root
 * (`<root>/teams`, `<root>/tasks`) plus mailroom's own files under `<root>/mailroom/` (journal,
 * inbox archive, leases, reader claims, idempotency keys, member records, deleted teams), with Claude
 * Code–compatible locks and atomic writes (docs/format.md). Each method is one transition whose lock
 * choreography lives in the module it delegates to; none takes a callback from its caller.
 */
import type { Member, TeamConfig } from '../../protocol/config.js';
import type { TeamEventRecord } from '../../protocol/events.js';
import type { InboxEntry } from '../../protocol/inbox.js';
import type { MemberRecord } from '../../protocol/member-record.js';
import type { Task, TaskStatus } from '../../protocol/task.js';
import type { StoreIssue, StoreRepair } from '../health.js';
import type { LockOptions } from './lock.js';
import { Layout } from './paths.js';
import type { StoreSelection } from '../selection.js';
import type {
  PutTaskOptions,
  AddMemberOptions,
  AppendOptions,
  AppendResult,
  ClaimReaderOptions,
  ClaimRequest,
  CreatedTask,
  CreateTaskOptions,
  Cursor,
  DeletedTeam,
  EventPage,
  InboxChanges,
  InboxHistory,
  InboxMark,
  InboxRef,
  Lease,
  MemberPatch,
  OpContext,
  MarkReadOptions,
  ArchiveOptions,
  AcknowledgeOptions,
  OutgoingMessage,
  StoredMessage,
  PatchedTask,
  ReaderClaim,
  ReaderHolder,
  RemovedMember,
  StoreHint,
  TakeOptions,
  UnreadLook,
  TaskDraft,
  TaskEdge,
  TaskPatch,
  TeamImage,
  TeamRef,
  UnreadableTeam,
  TeamRemoval,
  TeamStore,
  Transition,
  UnassignOptions,
  WatchHandle,
  WatchOptions,
  InboxlessMember,
} from '../team-store.js';
import type { FsContext } from './context.js';
import type { DeadLetter } from '../../domain/dead-letters.js';
import { appendMessages, readAppended } from './inbox-append.js';
import { inboxlessMembersOf } from './health-names.js';
import { unreadableTeams } from './team-rebuild.js';
import * as inboxes from './inboxes.js';
import * as journal from './journal.js';
import * as leases from './leases.js';
import * as memberRecords from './member-records.js';
import * as settings from './settings.js';
import * as pathLeases from './path-leases.js';
import type { PathLease } from '../../protocol/path-lease.js';
import type { AcquireRequest, ReleaseRequest } from '../../domain/path-leases.js';
import { refusedEvent, type Refusal } from '../../domain/events.js';
import { stampOf } from './context.js';
import type { SettingsPatch, TeamSettings } from '../../protocol/settings.js';
import type { SettingsChange } from '../../domain/settings.js';
import * as readers from './readers.js';
import * as roster from './roster.js';
import * as tasks from './tasks.js';
import * as teams from './teams.js';
import { watchTeam } from './watch.js';
import { readInboxChanges } from './inbox-changes.js';
import { changeStamp } from './change-stamp.js';
import { sameView, viewStamp } from './view-stamp.js';

/** Team store over a directory in Claude Code's format. Cheap to construct; holds no open handles. */
export class FsTeamStore implements TeamStore {
  readonly selection: StoreSelection;
  private readonly ctx: FsContext;

  constructor(root: string, lock: LockOptions = {}) {
    const layout = new Layout(root);
    this.ctx = { layout, lock };
    this.selection = { kind: 'fs', root: layout.root };
  }

  get location(): string {
    return this.ctx.layout.root;
  }

  listTeams(): Promise<TeamRef[]> {
    return teams.listTeams(this.ctx);
  }

  unreadableTeams(): Promise<UnreadableTeam[]> {
    return unreadableTeams(this.ctx);
  }
  readConfig(team: string): Promise<TeamConfig> {
    return teams.readConfig(this.ctx, team);
  }
  viewStamp(team: string): Promise<string> {
    return viewStamp(this.ctx, team);
  }
  /** See {@link TeamStore.takesCarryViewStamps}: a take that hands out entries stamps the view after its step (leases.ts). */
  readonly takesCarryViewStamps = true as const;
  /** See {@link TeamStore.sameView} (view-stamp.ts). */
  sameView(a: string, b: string): boolean {
    return sameView(a, b);
  }
  createTeam(config: TeamConfig, ctx?: OpContext): Promise<Transition<TeamConfig>> {
    return teams.createTeam(this.ctx, config, ctx);
  }
  deleteTeam(team: string, ctx?: OpContext): Promise<Transition<DeletedTeam>> {
    return import('./deleted.js').then((m) => m.deleteTeam(this.ctx, team, ctx));
  }
  teamRemoval(team: string): Promise<TeamRemoval | undefined> {
    return teams.teamRemoval(this.ctx, team);
  }
  listDeletedTeams(team?: string): Promise<DeletedTeam[]> {
    return import('./deleted.js').then((m) => m.listDeletedTeams(this.ctx, team));
  }
  restoreTeam(id: string, ctx?: OpContext): Promise<Transition<TeamConfig>> {
    return import('./deleted.js').then((m) => m.restoreTeam(this.ctx, id, ctx));
  }
  importTeam(image: TeamImage, ctx?: OpContext): Promise<Transition<TeamConfig>> {
    return import('./import.js').then((m) => m.importTeam(this.ctx, image, ctx));
  }

  addMember(team: string, member: Member, options?: AddMemberOptions): Promise<Transition<Member>> {
    return roster.addMember(this.ctx, team, member, options);
  }
  updateMember(team: string, name: string, patch: MemberPatch, ctx?: OpContext): Promise<Transition<Member>> {
    return roster.updateMember(this.ctx, team, name, patch, ctx);
  }
  removeMember(team: string, nameOrAgentId: string, ctx?: OpContext): Promise<Transition<RemovedMember | undefined>> {
    return roster.removeMember(this.ctx, team, nameOrAgentId, ctx);
  }

  deadLetterInbox(team: string, member: string, ctx?: OpContext): Promise<Transition<DeadLetter[]>> {
    return import('./dead-letters.js').then((m) => m.deadLetterInbox(this.ctx, team, member, ctx));
  }
  listDeadLetters(team: string): Promise<DeadLetter[]> {
    return import('./dead-letters.js').then((m) => m.listDeadLetters(this.ctx, team));
  }
  removeDeadLetter(team: string, id: string): Promise<Transition<DeadLetter | undefined>> {
    return import('./dead-letters.js').then((m) => m.removeDeadLetter(this.ctx, team, id));
  }
  redeliverDeadLetters(team: string, member: string, ctx?: OpContext): Promise<Transition<DeadLetter[]>> {
    return import('./dead-letters.js').then((m) => m.redeliverDeadLetters(this.ctx, team, member, ctx));
  }

  readMemberRecords(team: string): Promise<MemberRecord[]> {
    return memberRecords.readMemberRecords(this.ctx, team);
  }

  async recordRefusal(team: string, refusal: Refusal, ctx?: OpContext): Promise<Transition<void>> {
    await teams.readConfig(this.ctx, team);
    const events = [refusedEvent(stampOf(team, ctx), refusal)];
    await journal.journal(this.ctx, team, events);
    return { value: undefined, events };
  }

  readSettings(team: string): Promise<TeamSettings> {
    return settings.readSettings(this.ctx, team);
  }
  updateSettings(team: string, patch: SettingsPatch, ctx?: OpContext): Promise<Transition<SettingsChange>> {
    return settings.updateSettings(this.ctx, team, patch, ctx);
  }

  listPathLeases(team: string, ctx?: OpContext): Promise<Transition<PathLease[]>> {
    return pathLeases.listPathLeases(this.ctx, team, ctx);
  }
  acquirePathLease(team: string, req: AcquireRequest, ctx?: OpContext): Promise<Transition<PathLease>> {
    return pathLeases.acquirePathLease(this.ctx, team, req, ctx);
  }
  releasePathLeases(team: string, req: ReleaseRequest, ctx?: OpContext): Promise<Transition<PathLease[]>> {
    return pathLeases.releasePathLeases(this.ctx, team, req, ctx);
  }

  appendMessages(team: string, messages: readonly OutgoingMessage[], options?: AppendOptions): Promise<Transition<AppendResult>> {
    return appendMessages(this.ctx, team, messages, options);
  }
  readAppended(team: string, idempotencyKey: string): Promise<StoredMessage[] | undefined> {
    return readAppended(this.ctx, team, idempotencyKey);
  }
  readInbox(team: string, member: string): Promise<InboxEntry[]> {
    return inboxes.readInbox(this.ctx, team, member);
  }
  readInboxChanges(team: string, member: string, since?: InboxMark): Promise<InboxChanges> {
    return readInboxChanges(this.ctx, team, member, since);
  }
  readInboxHistory(team: string, member: string): Promise<InboxHistory> {
    return inboxes.readInboxHistory(this.ctx, team, member);
  }
  listInboxes(team: string): Promise<InboxRef[]> {
    return inboxes.listInboxes(this.ctx, team);
  }
  takeUnread(team: string, member: string, options: TakeOptions): Promise<Transition<Lease>> {
    return leases.takeUnread(this.ctx, team, member, options);
  }
  /** See {@link TeamStore.lookUnread} (leases.ts). */
  lookUnread(team: string, member: string): Promise<UnreadLook> {
    return leases.lookUnread(this.ctx, team, member);
  }
  acknowledge(team: string, member: string, leaseId: string, options?: AcknowledgeOptions): Promise<Transition<number>> {
    return leases.acknowledge(this.ctx, team, member, leaseId, options);
  }
  release(team: string, member: string, leaseId: string, ctx?: OpContext): Promise<Transition<number>> {
    return leases.release(this.ctx, team, member, leaseId, ctx);
  }
  markRead(team: string, member: string, keys: readonly string[], options?: MarkReadOptions): Promise<Transition<number>> {
    return inboxes.markRead(this.ctx, team, member, keys, options);
  }
  archiveInbox(team: string, member: string, options?: ArchiveOptions): Promise<Transition<number>> {
    return inboxes.archiveInbox(this.ctx, team, member, options);
  }
  setInboxAside(team: string, name: string): Promise<Transition<string | undefined>> {
    return inboxes.setInboxAside(this.ctx, team, name);
  }

  listTasks(team: string): Promise<Task[]> {
    return tasks.listTasks(this.ctx, team);
  }
  readTask(team: string, id: string, options?: { strict?: boolean }): Promise<Task | undefined> {
    return tasks.readTask(this.ctx, team, id, options);
  }
  readHighWatermark(team: string): Promise<string> {
    return tasks.readHighWatermark(this.ctx, team);
  }
  createTask(team: string, draft: TaskDraft, options?: CreateTaskOptions): Promise<Transition<CreatedTask>> {
    return tasks.createTask(this.ctx, team, draft, options);
  }
  claimTask(team: string, request: ClaimRequest, ctx?: OpContext): Promise<Transition<Task | undefined>> {
    return tasks.claimTask(this.ctx, team, request, ctx);
  }
  patchTask(team: string, id: string, patch: TaskPatch, ctx?: OpContext): Promise<Transition<PatchedTask>> {
    return tasks.patchTask(this.ctx, team, id, patch, ctx);
  }
  linkTasks(team: string, edges: readonly TaskEdge[], ctx?: OpContext): Promise<Transition<Task[]>> {
    return tasks.linkTasks(this.ctx, team, edges, ctx);
  }
  unlinkTasks(team: string, edges: readonly TaskEdge[], ctx?: OpContext): Promise<Transition<Task[]>> {
    return tasks.unlinkTasks(this.ctx, team, edges, ctx);
  }
  deleteTask(team: string, id: string, ctx?: OpContext): Promise<Transition<Task>> {
    return tasks.deleteTask(this.ctx, team, id, ctx);
  }
  putTask(team: string, task: Task, ctx?: PutTaskOptions): Promise<Transition<Task>> {
    return tasks.putTask(this.ctx, team, task, ctx);
  }
  unassignTasks(team: string, owner: string, options?: UnassignOptions): Promise<Transition<Task[]>> {
    return tasks.unassignTasks(this.ctx, team, [owner], options);
  }

  claimReader(team: string, member: string, holder: ReaderHolder, options?: ClaimReaderOptions): Promise<Transition<ReaderClaim>> {
    return readers.claimReader(this.ctx, team, member, holder, options);
  }
  beat(team: string, member: string, token: string, state: ReaderClaim['state'], ctx?: OpContext): Promise<Transition<ReaderClaim>> {
    return readers.beat(this.ctx, team, member, token, state, ctx);
  }
  releaseReader(team: string, member: string, token: string, ctx?: OpContext): Promise<Transition<void>> {
    return readers.releaseReader(this.ctx, team, member, token, ctx);
  }
  readClaims(team: string): Promise<ReaderClaim[]> {
    return readers.readClaims(this.ctx, team);
  }
  readClock(team: string): Promise<number> {
    return readers.readClock(this.ctx, team);
  }

  async inboxlessMembers(team: string): Promise<InboxlessMember[]> {
    return inboxlessMembersOf(await this.readConfig(team));
  }

  readEvents(team: string, options?: { since?: Cursor | undefined; limit?: number | undefined }): Promise<EventPage> {
    return journal.readEvents(this.ctx, team, options);
  }
  recordObserved(team: string, events: readonly TeamEventRecord[]): Promise<void> {
    return journal.appendLines(this.ctx, team, events);
  }
  watch(team: string, listener: (hint: StoreHint) => void, options?: WatchOptions): Promise<WatchHandle> {
    return watchTeam(this.ctx, team, listener, options);
  }
  changeStamp(team: string, member: string): Promise<string> {
    return Promise.resolve(changeStamp(this.ctx, team, member));
  }

  scanHealth(): Promise<StoreIssue[]> {
    return import('./health-scan.js').then((m) => m.scanTeamHealth(this.ctx));
  }
  repairHealth(issue: StoreIssue): Promise<StoreRepair> {
    return import('./health-repair.js').then((m) => m.repairHealth(this.ctx, issue));
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
