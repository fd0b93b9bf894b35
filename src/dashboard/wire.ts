/**
 * The shapes `mailroom dashboard` sends its page (JSON over HTTP and server-sent events). Plain
 * interfaces (and one constant) with no imports, so the browser code (src/dashboard/page/) shares them with the
 * server without pulling in Node modules. Times are ISO-8601 strings or epoch ms, as named.
 */

/** A member's presence as the page shows it (from its reader claim; see src/domain/presence.ts). */
export interface WirePresence {
  /** `working`, `idle`, `stopped` or `dead`. */
  state: string;
  /** Epoch ms of its last beat, when it has beaten. */
  lastBeatAt?: number | undefined;
  host?: string | undefined;
  pid?: number | undefined;
}

/** One roster row. */
export interface WireMember {
  name: string;
  isLead: boolean;
  /** False once it left the team (still listed so its history reads). */
  inRoster: boolean;
  /** The state `watch` shows (`working`, `idle`, `waiting`, `stopped`, `dead`, `left`, `unknown`). */
  state: string;
  stateReason: string;
  presence?: WirePresence | undefined;
  /** How it runs: mailroom's runtime (`in-process`, `process`, `mcp`, …) or Claude Code's backendType. */
  backend?: string | undefined;
  /** Its model id; absent when none is known (also for the recorded placeholder `"unknown"`, src/core/members/known-model.ts). */
  model?: string | undefined;
  /** Its swatch color: a CSS color name or hex color, absent for any other value (`swatchColor` in state.ts). */
  color?: string | undefined;
  capabilities: string[];
  currentTask?: { id: string; subject: string; status: string } | undefined;
  unread: number;
  /** ISO-8601 time of the latest message it sent. */
  lastActivity?: string | undefined;
  /** Set when its presence names another host than the dashboard's: it runs on another machine. */
  remoteHost?: string | undefined;
  /**
   * Set on a Claude Code root that `mailroom bridge` keeps in step with a shared store, for a member
   * the bridge brought in from there: it runs on another machine, and its state here is the
   * `isActive` the bridge last copied (its presence lives in the shared store).
   */
  bridged?: boolean | undefined;
}

/** One claim of a task, from the journal (src/core/tasks/claim-history.ts). */
export interface WireClaim {
  owner: string;
  /** The fencing token issued with the claim; undefined when claimed outside mailroom. */
  token?: number | undefined;
  /** ISO-8601. */
  at: string;
  /** Who gave it this owner (the owner itself: a claim). */
  by?: string | undefined;
  /** `completed`, `released`, `swept`, `left`, `unassigned`, `reassigned`, `reclaimed`, `deleted`; undefined while held. */
  ended?: string | undefined;
  /** ISO-8601 time it ended. */
  endedAt?: string | undefined;
  /** Who ended it. */
  endedBy?: string | undefined;
}

/** An advisory path lease (docs/leases.md): who holds which paths until when. */
export interface WireLease {
  id: string;
  holder: string;
  /** The repository root, on the holder's machine. */
  repo: string;
  /** Repository-relative paths or globs. */
  paths: string[];
  shared: boolean;
  reason?: string | undefined;
  /** The lease's fencing token. */
  token: number;
  /** Epoch ms (store clock). */
  acquiredAt: number;
  /** Epoch ms (store clock) after which it ends unless its holder's runtime keeps beating. */
  expiresAt: number;
}

/** One task with its board state. */
export interface WireTask {
  id: string;
  subject: string;
  description: string;
  status: string;
  owner?: string | undefined;
  blockedBy: string[];
  blocks: string[];
  /** Blockers not yet completed. */
  openBlockers: string[];
  /** Pending, unowned and unblocked. */
  ready: boolean;
  /** The task's current fencing token, when the store keeps one (grows with every claim). */
  fencingToken?: number | undefined;
  /** Metadata keys other than mailroom's internal ones, as JSON text (shown in the detail view). */
  metadata?: string | undefined;
  /** Its claims as the journal records them, oldest first. */
  claims: WireClaim[];
}

/** One message of the flow. */
export interface WireMessage {
  /** Stable key: recipient + msg_id (or from+timestamp+text). */
  key: string;
  msgId?: string | undefined;
  from: string;
  to: string;
  /** ISO-8601. */
  timestamp: string;
  summary?: string | undefined;
  /** One-line description (structured messages rendered by type). */
  line: string;
  /** The stored text, cut to 4 KiB for the page. */
  text: string;
  /** `unread` or `read`. */
  status: string;
  /** Its delivery state (src/core/messages/delivery-status.ts): `queued`, `delivered`, `read`, `replied` or `dead-lettered`. */
  delivery: string;
  /** Protocol type of a structured message (`idle_notification`, `permission_request`, …). */
  type?: string | undefined;
  /** msg_id this one answers (`team ask` replies). */
  inReplyTo?: string | undefined;
  /** Set on an ask (`reply_expected`). */
  replyExpected?: boolean | undefined;
}

/** An open (or answered) permission, plan-approval or sandbox request to the lead. */
export interface WireRequest {
  id: string;
  kind: string;
  from: string;
  timestamp: string;
  summary: string;
  answered: boolean;
}

/** A dead letter: unread mail of a member who left. */
export interface WireDeadLetter {
  id: string;
  to: string;
  from: string;
  timestamp: string;
  summary: string;
}

/**
 * Everything the page draws: sent whole when an event stream opens (`event: state`, and by
 * `GET /api/state`), then kept current by {@link WirePatch}es (`event: patch`).
 */
export interface WireState {
  /** Version: 1 for the first state built, one more per patch. */
  version: number;
  team: string;
  exists: boolean;
  /** Claude Code ended the session that owned the team. */
  ended: boolean;
  description?: string | undefined;
  lead: string;
  /** Who the page acts as (the lead, or `--as`). */
  actor: string;
  /** The store, password hidden (`/home/me/.mailroom`, `redis://:***@host:6379/0`). */
  store: string;
  /** The dashboard's own host name (remote members are marked against it). */
  host: string;
  members: WireMember[];
  tasks: WireTask[];
  /** The newest messages, oldest first (at most {@link WireState.messageLimit}). */
  messages: WireMessage[];
  /** How many messages the team has in all. */
  messageTotal: number;
  messageLimit: number;
  unread: number;
  requests: WireRequest[];
  deadLetters: WireDeadLetter[];
  /** The team's live path leases. */
  leases: WireLease[];
  /** What the view could not read (corrupt files, …), one sentence each. */
  problems: string[];
  /** Epoch ms when this state was built. */
  at: number;
}

/** The lists of a {@link WireState} that patches carry item by item, and each one's key field. */
export const LIST_KEYS = { members: 'name', tasks: 'id', messages: 'key', requests: 'id', deadLetters: 'id', leases: 'id' } as const;

/** A list of a {@link WireState}. */
export type WireListName = keyof typeof LIST_KEYS;

/**
 * What changed in one list: items new or changed (whole), keys gone, and the full key order only
 * when it is not "the old order, minus the removed, plus the new ones at the end in `upsert` order".
 */
export interface WireListPatch<T> {
  upsert: T[];
  remove: string[];
  order?: string[] | undefined;
}

/** The fields of a {@link WireState} that are not lists (nor the version). */
export type WireScalars = Omit<WireState, WireListName | 'version'>;

/**
 * One change to the page's state (`event: patch`): applies to the state of version `base` and
 * makes version `version` (= base + 1). A page whose state is not `base` reconnects for a new
 * snapshot. Only what changed is present.
 */
export interface WirePatch {
  base: number;
  version: number;
  scalars?: Partial<WireScalars> | undefined;
  members?: WireListPatch<WireMember> | undefined;
  tasks?: WireListPatch<WireTask> | undefined;
  messages?: WireListPatch<WireMessage> | undefined;
  requests?: WireListPatch<WireRequest> | undefined;
  deadLetters?: WireListPatch<WireDeadLetter> | undefined;
  leases?: WireListPatch<WireLease> | undefined;
}

/** One journal event as the timeline shows it. */
export interface WireEvent {
  /** Position in the listing (0 = oldest shown). */
  seq: number;
  /** ISO-8601. */
  at: string;
  kind: string;
  actor?: string | undefined;
  member?: string | undefined;
  task?: string | undefined;
  /** One line, as `mailroom log` prints it. */
  line: string;
}

/** One turn of an LLM member's transcript. */
export interface WireTurn {
  role: string;
  /** The turn's text (tool calls and results rendered as short JSON). */
  text: string;
}

/** What an action POST answers: ok with a line to show, or the refusal. */
export type WireActionResult =
  | { ok: true; message: string }
  | { ok: false; code: string; message: string; rule?: string | undefined };

/** The actions the page can take (POST /api/action, JSON body). */
export type WireAction =
  | { kind: 'send'; to: string; text: string; summary?: string | undefined }
  | { kind: 'ask'; to: string; text: string; timeoutMs?: number | undefined }
  | { kind: 'answer'; requestId: string; approve: boolean; reason?: string | undefined }
  | { kind: 'addTask'; subject: string; description?: string | undefined; blockedBy?: string[] | undefined; owner?: string | undefined }
  | { kind: 'link'; id: string; blockedBy: string }
  | { kind: 'stop'; name: string }
  | { kind: 'resume'; name: string }
  | { kind: 'retry'; id: string };
