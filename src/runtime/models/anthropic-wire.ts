/**
 * Mapping between mailroom's provider-neutral conversation (./types.ts) and the Anthropic Messages
 * API wire format (https://docs.anthropic.com/en/api/messages): text, tool_use and tool_result
 * blocks, tools with `input_schema`, `stop_reason`, `usage`. Pure functions; no SDK runtime code.
 */
import type {
  ContentBlockParam,
  Message,
  MessageCreateParamsNonStreaming,
  MessageParam,
  StopReason as AnthropicStopReason,
  Tool,
} from '@anthropic-ai/sdk/resources/messages';
import type { ChatMessage, ContentBlock, ModelRequest, ModelResponse, StopReason, TextBlock, ToolSpec, ToolUseBlock } from './types.js';

/**
 * The `messages.create` body for `request`. The system prompt is omitted when empty, tools when
 * there are none. In user turns, tool_result blocks are moved before other blocks (the API requires
 * results to come first; delivered teammate messages may share the turn). Empty text blocks are
 * dropped (the API refuses them).
 */
export function toAnthropicParams(model: string, request: ModelRequest, maxTokens: number): MessageCreateParamsNonStreaming {
  const params: MessageCreateParamsNonStreaming = {
    model,
    max_tokens: maxTokens,
    messages: request.messages.map(toMessageParam),
  };
  if (request.system !== '') params.system = request.system;
  if (request.tools.length > 0) params.tools = request.tools.map(toTool);
  return params;
}

function toMessageParam(message: ChatMessage): MessageParam {
  const blocks = message.content.filter((block) => block.type !== 'text' || block.text !== '');
  const ordered = message.role === 'user' ? resultsFirst(blocks) : blocks;
  return { role: message.role, content: ordered.map(toBlockParam) };
}

function resultsFirst(blocks: ContentBlock[]): ContentBlock[] {
  return [...blocks.filter((b) => b.type === 'tool_result'), ...blocks.filter((b) => b.type !== 'tool_result')];
}

function toBlockParam(block: ContentBlock): ContentBlockParam {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
    case 'tool_result':
      return { type: 'tool_result', tool_use_id: block.toolUseId, content: block.content, ...(block.isError ? { is_error: true } : {}) };
  }
}

function toTool(spec: ToolSpec): Tool {
  return { name: spec.name, description: spec.description, input_schema: { ...spec.inputSchema, type: 'object' } };
}

/** The provider-neutral reply for a Messages API response; blocks other than text and tool_use (thinking, server tools) are dropped. */
export function fromAnthropicMessage(message: Message): ModelResponse {
  const content: Array<TextBlock | ToolUseBlock> = [];
  for (const block of message.content) {
    if (block.type === 'text') content.push({ type: 'text', text: block.text });
    else if (block.type === 'tool_use') content.push({ type: 'tool_use', id: block.id, name: block.name, input: asInput(block.input) });
  }
  const usage = { inputTokens: message.usage.input_tokens, outputTokens: message.usage.output_tokens };
  return { content, stopReason: toStopReason(message.stop_reason), usage };
}

function asInput(input: unknown): Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}

const STOP_REASONS: Readonly<Partial<Record<AnthropicStopReason, StopReason>>> = {
  end_turn: 'end_turn',
  tool_use: 'tool_use',
  max_tokens: 'max_tokens',
  model_context_window_exceeded: 'max_tokens',
  stop_sequence: 'stop_sequence',
  refusal: 'refusal',
};

function toStopReason(reason: AnthropicStopReason | null): StopReason {
  return (reason === null ? undefined : STOP_REASONS[reason]) ?? 'other';
}
