/**
 * What a catalogue tool runs with, whichever surface called it: the team, the acting member, the
 * lead, a working directory, the call's abort signal, a per-call record of turn outcomes, a logger,
 * and the services only some surfaces provide (an MCP session's inbox, the runtime's recorded
 * shell). Surfaces build it; handlers and rules only read it.
 */
import type { TeamOptions } from '../core/context.js';
import type { SenderView } from '../core/teams/sender-view.js';
import type { TeamFeed } from '../core/live/feed.js';
import type { HeldClaims } from '../core/tasks/fencing.js';

/** The surfaces a tool can be exposed on: the runtime's model tools and the MCP server. */
export type Surface = 'runtime' | 'mcp';

/** Every {@link Surface}, in documentation order. */
export const SURFACES: readonly Surface[] = ['runtime', 'mcp'];

/** Who asks for a tool, where: what enablement rules decide on. */
export interface ToolScope {
  /** Catalogue id of the tool, e.g. `task_create`. */
  readonly tool: string;
  readonly surface: Surface;
  /** Team name. */
  readonly team: string;
  /** Member name of the caller. */
  readonly member: string;
}

/** What happened during a runtime turn that the turn loop needs afterwards. */
export interface TurnRecord {
  /** The last message sent to one member (for the idle notification's summary). */
  lastDirect?: { to: string; text: string; summary?: string | undefined };
  /** Every recipient messaged in the turn (`*` for a broadcast): the no-lost-report rule looks for the lead. */
  messaged?: string[];
  /** The last task this teammate finished in the turn. */
  finishedTask?: { id: string; status: 'resolved' | 'failed'; failureReason?: string };
  /** The text of the turn's last model reply that had any (the idle notification's `result`). */
  lastText?: string;
  /** Set once the teammate approved a shutdown request: the turn ends and the teammate stops. */
  shutdownApproved?: { requestId: string };
  /** Set when a hook answered `{"continue": false}`: the turn ends and the teammate stops (`reason`: its stopReason). */
  hookStop?: { reason: string };
  /** Tasks whose write was refused in the turn (TASK_FENCED): the member lost them; the lead was told, the turn's report is not sent. */
  lostTasks?: string[];
}

/** Unread messages handed out by one inbox read, and how many stay unread after it. */
export interface InboxBatch {
  /** The messages as the surface shows them (oldest first); they count as consumed. */
  messages: readonly object[];
  remaining: number;
}

/** Consuming the caller's inbox (MCP: `read_inbox`, `wait_for_message`; the runtime delivers by itself). */
export interface InboxService {
  /** Acknowledges what earlier takes handed out, then takes up to `limit` of the oldest unread messages (read once acknowledged). */
  take(limit: number): Promise<InboxBatch>;
  /** As {@link take}, once something is unread; an empty batch after `timeoutMs` (ms) or when `signal` aborts. */
  wait(timeoutMs: number, limit: number, signal: AbortSignal): Promise<InboxBatch>;
  /**
   * Marks messages handed out by earlier takes read (those msg_ids, default all): the client has
   * them (MCP `ack`, issue 21). `unknown` lists msg_ids not handed out by this surface (or acknowledged already).
   */
  ack(msgIds?: readonly string[]): Promise<{ acknowledged: number; pending: number; unknown: string[] }>;
}

/** A task command to run (RunTaskCommand). */
export interface CommandRequest {
  /** The task whose `metadata.command` this is (recorded with the running command). */
  taskId: string;
  /** Shell command line, run with `sh -c`. */
  command: string;
  cwd: string;
  /** Extra environment variables. */
  env: Readonly<Record<string, string>>;
  /** Kill the command after this many ms. */
  timeoutMs: number;
  signal: AbortSignal;
}

/** What a command did (the runtime's `runShell` returns it too). */
export interface CommandResult {
  /** Exit code; `null` when killed by a signal or when it could not start. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Wall time, ms. */
  durationMs: number;
  timedOut: boolean;
  /** True when the request's signal aborted the command. */
  aborted: boolean;
  /** Why the command could not start (e.g. cwd missing). */
  spawnError?: string;
}

/** Runs task commands for the caller, recorded while they run so a killed runtime's orphans can be reaped. */
export interface CommandRunner {
  /** Never rejects: failures are in the result. */
  run(request: CommandRequest): Promise<CommandResult>;
}

/** Services a surface may provide; an entry names the ones it needs in `requires`. */
export interface ToolServices {
  inbox: InboxService;
  commands: CommandRunner;
}

/** Name of one of the {@link ToolServices}. */
export type ServiceName = keyof ToolServices;

/** Writes one diagnostic line (never to an MCP server's stdout). */
export type ToolLogger = (line: string) => void;

/** The surface-independent context of one tool call, built by the surface adapter. */
export interface ToolContext {
  /** The team, as every core use case takes it (`{root, team}`), and the caller's kept view for its sends (a long-lived surface: runtime, MCP). */
  readonly target: TeamOptions & { senderView?: SenderView | undefined };
  /** Member name of the caller: sender, claimant, creator, inbox owner. */
  readonly member: string;
  /** The lead's member name. */
  readonly lead: string;
  /** Working directory for commands. */
  readonly cwd: string;
  /** Aborts the call (runtime: the teammate stops; MCP: the request is cancelled). */
  readonly signal: AbortSignal;
  /** Outcomes the runtime's turn loop reads after the call (MCP: a fresh record per call, unread). */
  readonly record: TurnRecord;
  readonly log: ToolLogger;
  /** The services this surface provides. */
  readonly services: Partial<ToolServices>;
  /** The team's feed when the surface has one open (runtime): waits (e.g. for the lead's approval) use it instead of opening their own. */
  readonly feed?: TeamFeed | undefined;
  /**
   * The fencing tokens of the tasks this member's process claimed (runtime: one per teammate
   * process; MCP: one per server). Task writes about them carry the token (docs/runtime.md
   * "Fencing tokens"); without it (a surface that keeps none) writes go unfenced.
   */
  readonly claims?: HeldClaims | undefined;
}
