/**
 * mailroom's public library API. Every CLI verb is one of these functions: they take
 * `{ root, team, … }` (root = a filesystem store's directory, or {@link Stores} opened with
 * {@link openStores}) and return data; they never print or exit. Errors are
 * {@link MailroomError}s with stable codes. The filesystem backend's own pieces (its classes,
 * layout, path rules and lock) are under the subpath `agent-mailroom/internals` (src/internals.ts).
 */
export { MailroomError, exitCodeFor, isMailroomError, type ErrorCode, type ErrorDetails } from './errors.js';

export { PALETTE, MemberSchema, TeamConfigSchema, type Member, type PaletteColor, type TeamConfig } from './protocol/config.js';
export { InboxEntrySchema, makeInboxEntry, isUnread, type InboxEntry } from './protocol/inbox.js';
export { TaskSchema, TASK_STATUSES, canonicalTask, isUnowned, type Task, type TaskStatus } from './protocol/task.js';
export {
  STRUCTURED_SCHEMAS,
  parseMessageText,
  isStructuredType,
  type ParsedText,
  type StructuredMessage,
  type StructuredOf,
  type StructuredType,
} from './protocol/structured.js';
export { shutdownRequestId, planApprovalRequestId, permissionRequestId, sandboxRequestId } from './protocol/ids.js';

export type * from './store/team-store.js';
export type { HostStore, AgentLog } from './store/host-store.js';
export {
  openStores,
  openFsStores,
  resolveSelection,
  selectionArgs,
  selectionEnv,
  selectionHint,
  redactUrl,
  type SelectionInput,
  type OpenOptions,
  type RedisBackendModule,
  type RedisSelection,
  type FsSelection,
} from './store/open.js';
export type { StoreSelection, Stores } from './store/selection.js';
export { NAME_PATTERN, LEAD_NAME, RESERVED_NAMES, assertValidName, suggestName, type NameCheckOptions } from './domain/names.js';
export { entryKey, tripleKey, messageKey, assignTimestamps, idempotentMsgId } from './domain/entries.js';
export { DEFAULT_LEASE_MS, selectTake, acknowledgedKeys, liveLeases, type LeaseRecord, type TakeSelection } from './domain/leases.js';
export { BEAT_INTERVAL_MS, DEFAULT_READER_TTL_MS, isLiveClaim, mayTakeOver, readerTaken } from './domain/reader-claims.js';
export { claimRefusal, busyRefusal, claimCandidates, applyClaim } from './domain/task-claim.js';
export { applyTaskChange, draftTask, changedKeys } from './domain/task-patch.js';
export { buildMember, nextColor, withColor, applyMemberPatch, assertFreeName, type MemberDraft } from './domain/roster.js';
export { messageEvent, deliveryEvent, taskEvent, memberEvent, teamEvent, taskSignature, type EventStamp } from './domain/events.js';
export { compareTaskIds, assertNoCycles, taskNotFound } from './domain/task-board.js';

export { type BaseOptions, type StoreRef, type TeamOptions } from './core/context.js';
export { leadOf, leadName, findMember, requireMember, isTeammate } from './domain/roster.js';
export {
  createTeam,
  listTeams,
  resolveTeam,
  showTeam,
  deleteTeam,
  restoreTeam,
  listDeletedTeams,
  type CreateTeamOptions,
  type MemberSummary,
  type TeamSummary,
} from './core/teams/team-lifecycle.js';
export { spawnMember, removeMember, type SpawnOptions, type BackendType } from './core/members/spawn.js';
export {
  sendMessage,
  broadcast,
  sendStructured,
  completeStructured,
  VIEW_ATTEMPTS,
  type SendOptions,
  type BroadcastOptions,
  type SendStructuredOptions,
  type SentMessage,
} from './core/messages/send.js';
export { SenderView } from './core/teams/sender-view.js';
export { routeByCapability, type Route, type RouteCandidate } from './core/messages/route.js';
export { ask, reply, DEFAULT_ASK_TIMEOUT_MS, type AskOptions, type AskResult, type ReplyOptions, type SentReply } from './core/messages/ask.js';
export { readInbox, markRead, type InboxMessage, type InboxView, type ReadInboxOptions, type MarkReadOptions } from './core/messages/inbox-read.js';
export { archiveInbox, autoArchiveAllowed, type ArchiveInboxOptions } from './core/messages/inbox-archive.js';
export { doctor, type DoctorOptions, type DoctorFinding, type DoctorFindingKind, type DoctorReport } from './core/doctor/doctor.js';
export { findOrphanCommands, reapOrphanCommands, reapOrphan, describeCommand, describeReap, type OrphanCommand, type OrphanVerdict, type ReapOutcome } from './core/processes/orphan-commands.js';
export { CommandRecordSchema, ProcessIdentitySchema, type CommandRecord, type ProcessIdentity } from './protocol/command.js';
export type { StoreIssue, StoreRepair, StoredRecordKind } from './store/health.js';
export { addTask, listTasks, getTask, deleteTask, viewOf, type AddTaskOptions, type ListTasksOptions, type TaskView, type MetadataPatch } from './core/tasks/board.js';
export { updateTask, mergeMetadata, type UpdateTaskOptions, type UpdateTaskResult } from './core/tasks/update.js';
export { claimTask, claimNextTask, type ClaimOptions, type ClaimRefusal } from './core/tasks/claim.js';
export { openBlockers, isReady, isInternal, findCycle, indexTasks } from './domain/task-board.js';
export {
  requestShutdown,
  respondToShutdown,
  completeShutdown,
  type ShutdownResponseOptions,
  type ShutdownOutcome,
} from './core/members/shutdown.js';
export { deadLetterDeparted, retryDeadLetters, listDeadLetters, NOTICE_SENDER, type RetriedLetter, type DeadLetterRetryOptions } from './core/messages/dead-letters.js';
export { DeadLetterSchema, deadLetterId, isDeadLetter, type DeadLetter } from './domain/dead-letters.js';

export {
  EVENT_VERSION,
  SUPPORTED_EVENT_VERSIONS,
  TeamEventRecordSchema,
  parseEvent,
  type TeamEventRecord,
  type MessageEvent,
  type DeliveryEvent,
  type TaskEvent,
  type MemberEvent,
  type TeamLifecycleEvent,
  type EventSource,
} from './protocol/events.js';
export { buildSnapshot, type TeamSnapshot, type MemberView, type MessageView, type SnapshotParts } from './core/live/snapshot.js';
export { deriveMemberState, type MemberState, type StateSignals, type StateVerdict } from './core/members/member-state.js';
export { TeamTracker, snapshotTeam, type TrackerOptions, type TrackerUpdate } from './core/live/tracker.js';
export { followTeam, type FollowOptions, type Following } from './core/live/follow.js';
export { describeEvent, describeJournalEvent, describeTask, oneLine, type TeamEvent } from './core/live/watch-events.js';
export { JournalReader, type ShownEvent } from './core/live/journal-reader.js';
export { recordObserved } from './core/live/journal-observed.js';

export * from './runtime/index.js';
export {
  CATALOGUE,
  CATALOGUE_RULES,
  Catalogue,
  defineTool,
  notPermitted,
  type ToolEntry,
  type ToolDefinition,
  type ToolRule,
  type ToolCall,
  type ToolScope,
  type Surface,
} from './tools/index.js';

// Claude Code 2.1.332 (issue 17): member roster shape, member records, a lead that cannot hear.
export { MEMBER_RUNTIMES, PANE_BACKENDS, rosterBackend, shutdownPaneFields, hasInProcessShape, type MemberRuntime, type RosterBackend } from './protocol/backend.js';
export { MEMBER_RECORD_VERSION, MemberRecordSchema, recordIsFor, type MemberRecord, type MemberRecordDraft } from './protocol/member-record.js';
export { teamKeepsPrompts, hasSessionLead } from './protocol/config.js';
export { inboxHistory, type HistoryEntry, type InboxHistoryOptions } from './core/messages/inbox-read.js';
export { messageStatus, type InboxPresence } from './core/live/message-book.js';
export { leadCannotHear, leadHearingWarning } from './core/messages/lead-hearing.js';
export type { TeamEnd } from './core/live/snapshot.js';

// mailroom bridge (issue 12): this machine's Claude Code team and a shared Redis team as one team.
export { startBridge, type Bridge, type BridgeOptions, type BridgeStatus } from './bridge/bridge.js';
export { sharedId } from './bridge/identity.js';
// Signed teams (issue 22): member identities, rotation, signing off, the journal check, the readers' guard.
export { enableSigning, endorseMember, rekeyTeam, unsignTeam, type Endorsed, type Rekeyed } from './core/trust/identity.js';
export { verifyJournal, type JournalVerification, type FailedMessage } from './core/trust/log-verify.js';
export { ControlGuard, type Judged, type RefusedControl } from './core/teams/signing.js';
