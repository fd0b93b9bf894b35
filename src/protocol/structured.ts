/**
 * Structured (protocol) messages: JSON objects stringified into an inbox entry's `text`.
 * The catalogue and field shapes follow Claude Code (reference §4). Parsing a text gives a typed
 * message, plain text, a known type with bad fields (an error value, never a throw), or an unknown
 * type that passes through untouched.
 */
import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

const ts = lazySchema(() => z.string());

/** `idle_notification`: teammate → lead after every turn. */
export const IdleNotificationSchema = lazySchema(() => z.looseObject({
  type: z.literal('idle_notification'),
  from: z.string(),
  timestamp: ts,
  idleReason: z.enum(['available', 'interrupted', 'failed']).optional(),
  summary: z.string().optional(),
  completedTaskId: z.string().optional(),
  completedStatus: z.string().optional(),
  failureReason: z.string().optional(),
  result: z.string().optional(),
}));

/** `task_assignment`: assigner → new owner on an owner change. */
export const TaskAssignmentSchema = lazySchema(() => z.looseObject({
  type: z.literal('task_assignment'),
  taskId: z.string(),
  subject: z.string(),
  description: z.string(),
  assignedBy: z.string(),
  timestamp: ts,
}));

/** `task_completed`: informational only. */
export const TaskCompletedSchema = lazySchema(() => z.looseObject({
  type: z.literal('task_completed'),
  from: z.string(),
  taskId: z.string(),
  taskSubject: z.string(),
  timestamp: ts,
}));

/** `shutdown_request`: lead → teammate. */
export const ShutdownRequestSchema = lazySchema(() => z.looseObject({
  type: z.literal('shutdown_request'),
  requestId: z.string(),
  from: z.string(),
  reason: z.string().optional(),
  timestamp: ts,
}));

/** `shutdown_approved`: teammate → lead. */
export const ShutdownApprovedSchema = lazySchema(() => z.looseObject({
  type: z.literal('shutdown_approved'),
  requestId: z.string(),
  from: z.string(),
  timestamp: ts,
  paneId: z.string().optional(),
  backendType: z.string().optional(),
}));

/** `shutdown_rejected`: teammate → lead; `reason` is required. */
export const ShutdownRejectedSchema = lazySchema(() => z.looseObject({
  type: z.literal('shutdown_rejected'),
  requestId: z.string(),
  from: z.string(),
  reason: z.string(),
  timestamp: ts,
}));

/** `plan_approval_request`: teammate → lead. */
export const PlanApprovalRequestSchema = lazySchema(() => z.looseObject({
  type: z.literal('plan_approval_request'),
  from: z.string(),
  timestamp: ts,
  planFilePath: z.string(),
  planContent: z.string(),
  requestId: z.string(),
}));

/** `plan_approval_response`: lead → teammate. */
export const PlanApprovalResponseSchema = lazySchema(() => z.looseObject({
  type: z.literal('plan_approval_response'),
  requestId: z.string(),
  approved: z.boolean(),
  feedback: z.string().optional(),
  timestamp: ts,
  permissionMode: z.string().optional(),
  planDigest: z.string().optional(),
}));

/** `permission_request`: teammate → lead. `agent_id` carries the worker's *name*. */
export const PermissionRequestSchema = lazySchema(() => z.looseObject({
  type: z.literal('permission_request'),
  request_id: z.string(),
  agent_id: z.string(),
  tool_name: z.string(),
  tool_use_id: z.string(),
  description: z.string(),
  input: z.record(z.string(), z.unknown()),
  permission_suggestions: z.array(z.unknown()),
}));

/**
 * `permission_response`: lead → teammate, `subtype` success (with `response`) or error (with
 * `error`). A discriminated union, so a bad message is reported by field, not as "invalid input".
 */
export const PermissionResponseSchema = lazySchema(() => z.discriminatedUnion('subtype', [
  z.looseObject({
    type: z.literal('permission_response'),
    request_id: z.string(),
    subtype: z.literal('success'),
    response: z.looseObject({ updated_input: z.unknown().optional(), permission_updates: z.unknown().optional() }),
  }),
  z.looseObject({
    type: z.literal('permission_response'),
    request_id: z.string(),
    subtype: z.literal('error'),
    error: z.string(),
  }),
]));

/** `sandbox_permission_request`: teammate → lead. */
export const SandboxPermissionRequestSchema = lazySchema(() => z.looseObject({
  type: z.literal('sandbox_permission_request'),
  requestId: z.string(),
  workerId: z.string(),
  workerName: z.string(),
  workerColor: z.string().optional(),
  hostPattern: z.looseObject({ host: z.string() }),
  createdAt: z.number(),
}));

/** `sandbox_permission_response`: lead → teammate. */
export const SandboxPermissionResponseSchema = lazySchema(() => z.looseObject({
  type: z.literal('sandbox_permission_response'),
  requestId: z.string(),
  host: z.string(),
  allow: z.boolean(),
  timestamp: ts,
}));

/** `team_permission_update`: lead → teammate. */
export const TeamPermissionUpdateSchema = lazySchema(() => z.looseObject({
  type: z.literal('team_permission_update'),
  permissionUpdate: z.looseObject({
    rules: z.array(z.looseObject({ toolName: z.string(), ruleContent: z.string().optional() })),
    behavior: z.string(),
  }),
  toolName: z.string(),
  directoryPath: z.string(),
}));

/** `mode_set_request`: lead → teammate. */
export const ModeSetRequestSchema = lazySchema(() => z.looseObject({
  type: z.literal('mode_set_request'),
  mode: z.string(),
  from: z.string(),
}));

/** Every known structured type with its schema. */
export const STRUCTURED_SCHEMAS = {
  idle_notification: IdleNotificationSchema,
  task_assignment: TaskAssignmentSchema,
  task_completed: TaskCompletedSchema,
  shutdown_request: ShutdownRequestSchema,
  shutdown_approved: ShutdownApprovedSchema,
  shutdown_rejected: ShutdownRejectedSchema,
  plan_approval_request: PlanApprovalRequestSchema,
  plan_approval_response: PlanApprovalResponseSchema,
  permission_request: PermissionRequestSchema,
  permission_response: PermissionResponseSchema,
  sandbox_permission_request: SandboxPermissionRequestSchema,
  sandbox_permission_response: SandboxPermissionResponseSchema,
  team_permission_update: TeamPermissionUpdateSchema,
  mode_set_request: ModeSetRequestSchema,
} as const;

/** Names of the known structured message types. */
export type StructuredType = keyof typeof STRUCTURED_SCHEMAS;

/** A typed structured message of a known type. */
export type StructuredMessage = {
  [K in StructuredType]: z.infer<(typeof STRUCTURED_SCHEMAS)[K]>;
}[StructuredType];

/** The structured message of type `K`. */
export type StructuredOf<K extends StructuredType> = Extract<StructuredMessage, { type: K }>;

/** Result of {@link parseMessageText}. */
export type ParsedText =
  | { kind: 'plain'; text: string }
  | { kind: 'structured'; message: StructuredMessage }
  | { kind: 'invalid'; type: StructuredType; error: string; raw: Record<string, unknown> }
  | { kind: 'unknown'; type: string; raw: Record<string, unknown> };

/** True when `type` names a known structured message type. */
export function isStructuredType(type: string): type is StructuredType {
  return Object.prototype.hasOwnProperty.call(STRUCTURED_SCHEMAS, type);
}

/**
 * Classifies an entry's `text`: a JSON object with a string `type` is structured (known type,
 * validated), invalid (known type, bad fields; `error` says which), or unknown (passed through);
 * anything else is plain text. Never throws.
 */
export function parseMessageText(text: string): ParsedText {
  const raw = tryParseObject(text);
  if (raw === undefined || typeof raw.type !== 'string') return { kind: 'plain', text };
  const type = raw.type;
  if (!isStructuredType(type)) return { kind: 'unknown', type, raw };
  const result = STRUCTURED_SCHEMAS[type].safeParse(raw);
  if (result.success) return { kind: 'structured', message: raw as StructuredMessage };
  const error = result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
  return { kind: 'invalid', type, error, raw };
}

function tryParseObject(text: string): Record<string, unknown> | undefined {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
