/**
 * The runtime's public surface (re-exported by the package entry): running teammates in-process or
 * as processes, the models, `runTeam`, and the delivery format. Importing it loads no model SDK:
 * the anthropic and openai adapters are imported by {@link createModel} on demand.
 */
export { currentTeammate, runAsTeammate, type TeammateContext } from './context.js';
export { runTeammate, type TeammateOptions, type TeammateExit, type TeammateState } from './teammate.js';
export { InProcessHost, type HostOptions, type HostedTeammate, type HostStopResult } from './host.js';
export { TeamFeed, DEFAULT_POLL_MS, type FeedHint, type FeedOptions, type ArmedHint } from '../core/live/feed.js';
export { ReaderLease, BEAT_INTERVAL_MS, DEFAULT_READER_TTL_MS, type HoldReaderOptions } from '../core/members/reader-claim.js';
export { shutdownHandshake, awaitShutdownAnswer, type ShutdownAnswer, type HandshakeOptions, type AwaitAnswerOptions } from './lifecycle/answer.js';
export { wrapMessage, wrapMessages, escapeAttribute, SUMMARY_CAP, SENDER_CAP } from './delivery/wrap.js';
export { orderForDelivery } from './delivery/order.js';
export { buildSystemPrompt } from './prompt.js';
export { TEAM_TOOLS, teamToolSpecs } from './tools/index.js';
export { createModel, parseModelSpec, MODEL_KINDS, type ModelKind, type ModelSpec } from './models/index.js';
export { createWorkerModel } from './models/worker.js';
export { createScriptedModel, loadScriptedModel, type ScriptedModel, type ScriptedModelOptions, type ScriptedTurn } from './models/scripted.js';
export { createCommandModel, renderTurn, type CommandModelOptions } from './models/command.js';
export type { Model, ModelRequest, ModelResponse, ChatMessage, ContentBlock, TextBlock, ToolUseBlock, ToolResultBlock, ToolSpec, StopReason, JsonSchema } from './models/types.js';
export { startProcessTeammate, type ProcessStartOptions } from './process/start.js';
export { spawnProcessTeammate, PROCESS_MEMBER_BACKEND, type SpawnedProcess } from './process/spawn.js';
export { stopTeammate, type StopOptions, type StopResult } from './lifecycle/stop.js';
export { DEFAULT_SHUTDOWN_TIMEOUT_MS } from './lifecycle/answer.js';
export { runTeam, DEFAULT_RUN_TIMEOUT_MS, type RunTeamOptions } from './run/run-team.js';
export { loadTeamFile, TeamFileSchema, type TeamFile, type LoadedTeamFile } from './run/team-file.js';
export type { RunReport, TaskReport, MemberReport } from './run/report.js';
export { ProcessRecordSchema, type ProcessRecord } from '../protocol/process.js';
