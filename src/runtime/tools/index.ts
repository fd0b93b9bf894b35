/**
 * The runtime surface of the tool catalogue (src/tools): the team tools every model-driven
 * teammate gets, under Claude Code's names and argument names, and running one tool call into a
 * tool result. Every call goes through the catalogue's gate, as MCP calls do. A refused call (bad
 * input, a task rule, an unknown member, a tool rule) becomes an error result the model can read
 * and react to; an abort propagates.
 */
import { MailroomError } from '../../errors.js';
import { CATALOGUE } from '../../tools/all.js';
import type { Catalogue } from '../../tools/catalogue.js';
import type { ToolEntry } from '../../tools/entry.js';
import { inputJsonSchema, surfaceSchema, toCanonical } from '../../tools/naming.js';
import type { ToolContext as CallContext } from '../../tools/types.js';
import type { ToolResultBlock, ToolSpec, ToolUseBlock } from '../models/types.js';
import { runRecordedShell } from '../recorded-shell.js';
import { ToolInputError, type TeamTool, type ToolContext } from './types.js';

const SURFACE = 'runtime';

/** Every team tool of the default catalogue, by runtime name (whether or not enabled for a given teammate). */
export const TEAM_TOOLS: ReadonlyMap<string, TeamTool> = new Map(CATALOGUE.exposedOn(SURFACE).map((e) => [e.names.runtime ?? e.id, teamTool(CATALOGUE, e)]));

/**
 * The specs the model sees: the catalogue's runtime tools that are enabled for this teammate
 * (all of them without `who`).
 */
export function teamToolSpecs(who?: Pick<ToolContext, 'team' | 'name' | 'catalogue'>): ToolSpec[] {
  const catalogue = who?.catalogue ?? CATALOGUE;
  const entries = who ? catalogue.enabledOn(SURFACE, { team: who.team, member: who.name }) : catalogue.exposedOn(SURFACE);
  return entries.map((e) => specOf(catalogue, e, who?.name));
}

/** Runs one tool call. Errors other than an abort become `isError` results. */
export async function runToolCall(call: ToolUseBlock, ctx: ToolContext): Promise<ToolResultBlock> {
  const catalogue = ctx.catalogue ?? CATALOGUE;
  const entry = catalogue.byName(SURFACE, call.name);
  if (!entry) {
    const available = catalogue.enabledOn(SURFACE, { team: ctx.team, member: ctx.name }).map((e) => e.names.runtime);
    return errorResult(call, `Unknown tool "${call.name}". Available: ${available.join(', ')}.`);
  }
  try {
    return { type: 'tool_result', toolUseId: call.id, content: await runEntry(catalogue, entry, call.input, ctx) };
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    if (err instanceof MailroomError && err.details.stop === true) ctx.record.hookStop = { reason: String(err.details.stopReason ?? err.message) };
    return errorResult(call, err instanceof Error ? err.message : String(err));
  }
}

function teamTool(catalogue: Catalogue, entry: ToolEntry): TeamTool {
  return { spec: specOf(catalogue, entry), run: (raw, ctx) => runEntry(catalogue, entry, raw, ctx) };
}

/** Validates `raw` under the runtime's argument names, runs it through the gate, and renders the result as text. */
async function runEntry(catalogue: Catalogue, entry: ToolEntry, raw: Record<string, unknown>, ctx: ToolContext): Promise<string> {
  const parsed = surfaceSchema(entry, SURFACE).safeParse(raw);
  if (!parsed.success) {
    throw new ToolInputError(entry.names.runtime ?? entry.id, parsed.error.issues.map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`).join('; '));
  }
  const input = toCanonical(entry, SURFACE, parsed.data);
  const context = callContext(ctx);
  const result = await catalogue.call(entry.id, input, context, SURFACE);
  const shown = entry.views.runtime ? entry.views.runtime(result, input, context) : result;
  return typeof shown === 'string' ? shown : JSON.stringify(shown);
}

function specOf(catalogue: Catalogue, entry: ToolEntry, member?: string): ToolSpec {
  return { name: entry.names.runtime ?? entry.id, description: catalogue.describe(entry, SURFACE, member), inputSchema: inputJsonSchema(entry, SURFACE) };
}

/** The catalogue's context for a teammate's call: its team, name and lead, and the recorded shell for task commands. */
function callContext(ctx: ToolContext): CallContext {
  const { store, team, name } = ctx;
  return {
    target: { root: store, team, senderView: ctx.senderView },
    member: name,
    lead: ctx.lead,
    cwd: ctx.cwd,
    signal: ctx.signal,
    record: ctx.record,
    feed: ctx.feed,
    claims: ctx.claims,
    log: ctx.log ?? (() => undefined),
    services: {
      commands: {
        run: ({ taskId, ...shell }) => runRecordedShell({ store, team, agent: name, taskId }, shell),
      },
    },
  };
}

function errorResult(call: ToolUseBlock, message: string): ToolResultBlock {
  return { type: 'tool_result', toolUseId: call.id, content: message, isError: true };
}
