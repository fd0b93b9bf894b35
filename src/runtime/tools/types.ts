/**
 * The shape of a team tool: a {@link ToolSpec} the model sees plus the function that runs it.
 * Inputs are zod schemas (the JSON schema the model sees is derived from them, one source of
 * truth). Tools call the same core functions as the CLI.
 */
import { z } from 'zod';
import type { JsonSchema, ToolSpec } from '../models/types.js';
import type { Stores } from '../../store/selection.js';

/** What a tool may know about the teammate calling it (passed explicitly, not via ALS). */
export interface ToolContext {
  /** The stores (pass as `root` to core use cases). */
  store: Stores;
  team: string;
  /** The calling teammate's member name. */
  name: string;
  /** The lead's member name. */
  lead: string;
  /** Working directory for commands. */
  cwd: string;
  signal: AbortSignal;
  /** Notable outcomes, reported back to the turn loop (idle notification, shutdown). */
  record: TurnRecord;
}

/** What happened during a turn that the loop needs afterwards. */
export interface TurnRecord {
  /** The last message sent to one member (for the idle notification's summary). */
  lastDirect?: { to: string; text: string; summary?: string | undefined };
  /** The last task this teammate finished in the turn. */
  finishedTask?: { id: string; status: 'resolved' | 'failed'; failureReason?: string };
  /** Set once the teammate approved a shutdown request: the turn ends and the teammate stops. */
  shutdownApproved?: { requestId: string };
}

/** A tool: its spec and its implementation. `run` returns the text of the tool result. */
export interface TeamTool {
  readonly spec: ToolSpec;
  run(input: Record<string, unknown>, ctx: ToolContext): Promise<string>;
}

/** Builds a tool whose input is validated by `schema` before `run` sees it. */
export function defineTool<S extends z.ZodObject>(
  name: string,
  description: string,
  schema: S,
  run: (input: z.infer<S>, ctx: ToolContext) => Promise<unknown>,
): TeamTool {
  return {
    spec: { name, description, inputSchema: jsonSchemaOf(schema) },
    async run(raw, ctx) {
      const parsed = schema.safeParse(raw);
      if (!parsed.success) throw new ToolInputError(name, parsed.error.issues.map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`).join('; '));
      const result = await run(parsed.data, ctx);
      return typeof result === 'string' ? result : JSON.stringify(result);
    },
  };
}

/** A tool call whose input does not match the tool's schema. */
export class ToolInputError extends Error {
  constructor(tool: string, issues: string) {
    super(`Invalid input for ${tool}: ${issues}.`);
    this.name = 'ToolInputError';
  }
}

function jsonSchemaOf(schema: z.ZodObject): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema) as Record<string, unknown>;
  return rest;
}
