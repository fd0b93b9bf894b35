/**
 * The team tools every model-driven teammate gets, and running one tool call into a tool result.
 * A refused call (bad input, a task rule, an unknown member) becomes an error result the model can
 * read and react to; an abort propagates.
 */
import type { ToolResultBlock, ToolSpec, ToolUseBlock } from '../models/types.js';
import { taskClaimTool } from './claim.js';
import { runTaskCommandTool } from './run-command.js';
import { sendMessageTool } from './send-message.js';
import { taskCreateTool, taskGetTool, taskListTool, taskUpdateTool } from './tasks.js';
import type { TeamTool, ToolContext } from './types.js';

/** Every team tool, by name. */
export const TEAM_TOOLS: ReadonlyMap<string, TeamTool> = new Map(
  [sendMessageTool, taskCreateTool, taskGetTool, taskListTool, taskUpdateTool, taskClaimTool, runTaskCommandTool].map((t) => [t.spec.name, t]),
);

/** The specs the model sees. */
export function teamToolSpecs(): ToolSpec[] {
  return [...TEAM_TOOLS.values()].map((t) => t.spec);
}

/** Runs one tool call. Errors other than an abort become `isError` results. */
export async function runToolCall(call: ToolUseBlock, ctx: ToolContext): Promise<ToolResultBlock> {
  const tool = TEAM_TOOLS.get(call.name);
  if (!tool) return errorResult(call, `Unknown tool "${call.name}". Available: ${[...TEAM_TOOLS.keys()].join(', ')}.`);
  try {
    return { type: 'tool_result', toolUseId: call.id, content: await tool.run(call.input, ctx) };
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    return errorResult(call, err instanceof Error ? err.message : String(err));
  }
}

function errorResult(call: ToolUseBlock, message: string): ToolResultBlock {
  return { type: 'tool_result', toolUseId: call.id, content: message, isError: true };
}
