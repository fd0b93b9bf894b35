/**
 * Mapping between mailroom's provider-neutral conversation (./types.ts) and the OpenAI Chat
 * Completions wire format with function calling (https://platform.openai.com/docs/api-reference/chat),
 * as spoken by OpenAI and by compatible servers (Ollama, vLLM, LM Studio). Pure functions.
 */
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import { MailroomError } from '../../errors.js';
import type { ChatMessage, ModelResponse, StopReason, TextBlock, ToolSpec, ToolUseBlock } from './types.js';

/** Where the output token cap goes: OpenAI's own API wants `max_completion_tokens`, compatible servers `max_tokens`. */
export type MaxTokensField = 'max_completion_tokens' | 'max_tokens';

/** `max_completion_tokens` for api.openai.com (its newer models refuse `max_tokens`), `max_tokens` for any other server. */
export function maxTokensFieldFor(baseURL: string): MaxTokensField {
  return URL.canParse(baseURL) && new URL(baseURL).hostname === 'api.openai.com' ? 'max_completion_tokens' : 'max_tokens';
}

/** Input of {@link toChatParams}. */
export interface ChatParamsInput {
  model: string;
  system: string;
  messages: ChatMessage[];
  tools: ToolSpec[];
  /** Output token cap; omitted from the body when undefined (server default). */
  maxTokens: number | undefined;
  maxTokensField: MaxTokensField;
}

/**
 * The `chat.completions.create` body. The system prompt becomes a leading `system` message (omitted
 * when empty). A user turn's tool_result blocks become `role: "tool"` messages (each with its
 * `tool_call_id`) placed before the turn's text, which is joined with blank lines into one `user`
 * message; `isError` results are prefixed with `Error: ` (the format has no error flag). An assistant
 * turn becomes one message with `content` (or null) and `tool_calls` (arguments JSON-encoded).
 */
export function toChatParams(input: ChatParamsInput): ChatCompletionCreateParamsNonStreaming {
  const messages: ChatCompletionMessageParam[] = input.system === '' ? [] : [{ role: 'system', content: input.system }];
  for (const message of input.messages) messages.push(...toMessageParams(message));
  const params: ChatCompletionCreateParamsNonStreaming = { model: input.model, messages };
  if (input.tools.length > 0) params.tools = input.tools.map(toTool);
  if (input.maxTokens !== undefined) params[input.maxTokensField] = input.maxTokens;
  return params;
}

function toMessageParams(message: ChatMessage): ChatCompletionMessageParam[] {
  const text = message.content.flatMap((b) => (b.type === 'text' && b.text !== '' ? [b.text] : [])).join('\n\n');
  if (message.role === 'assistant') return [toAssistantParam(message, text)];
  const results: ChatCompletionMessageParam[] = message.content.flatMap((b) =>
    b.type === 'tool_result' ? [{ role: 'tool' as const, tool_call_id: b.toolUseId, content: b.isError ? `Error: ${b.content}` : b.content }] : [],
  );
  return text === '' ? results : [...results, { role: 'user', content: text }];
}

function toAssistantParam(message: ChatMessage, text: string): ChatCompletionMessageParam {
  const calls = message.content.flatMap((b) =>
    b.type === 'tool_use' ? [{ id: b.id, type: 'function' as const, function: { name: b.name, arguments: JSON.stringify(b.input) } }] : [],
  );
  return { role: 'assistant', content: text === '' ? null : text, ...(calls.length > 0 ? { tool_calls: calls } : {}) };
}

function toTool(spec: ToolSpec): ChatCompletionTool {
  return { type: 'function', function: { name: spec.name, description: spec.description, parameters: { ...spec.inputSchema } } };
}

/**
 * The provider-neutral reply for a completion (first choice). Any tool call makes the stop reason
 * `tool_use`, whatever `finish_reason` says (some compatible servers answer `stop`).
 * @throws MODEL_ERROR when there is no choice, or a tool call's arguments are not a JSON object.
 */
export function fromChatCompletion(completion: ChatCompletion, modelId: string): ModelResponse {
  const choice = completion.choices[0];
  if (choice === undefined) throw new MailroomError('MODEL_ERROR', `Model ${modelId} returned no choices; check the server's logs.`);
  const content: Array<TextBlock | ToolUseBlock> = [];
  const text = choice.message.content ?? choice.message.refusal ?? '';
  if (text !== '') content.push({ type: 'text', text });
  for (const call of choice.message.tool_calls ?? []) {
    if (call.type !== 'function') continue;
    content.push({ type: 'tool_use', id: call.id, name: call.function.name, input: parseArguments(call.function, modelId) });
  }
  const stopReason = content.some((b) => b.type === 'tool_use') ? 'tool_use' : toStopReason(choice.finish_reason, choice.message.refusal);
  const usage = completion.usage && { inputTokens: completion.usage.prompt_tokens, outputTokens: completion.usage.completion_tokens };
  return usage === undefined ? { content, stopReason } : { content, stopReason, usage };
}

function parseArguments(fn: { name: string; arguments: string }, modelId: string): Record<string, unknown> {
  if (fn.arguments.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(fn.arguments);
  } catch (err) {
    throw badArguments(fn, modelId, err);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw badArguments(fn, modelId, undefined);
  return parsed as Record<string, unknown>;
}

function badArguments(fn: { name: string; arguments: string }, modelId: string, cause: unknown): MailroomError {
  const shown = fn.arguments.length > 200 ? `${fn.arguments.slice(0, 200)}…` : fn.arguments;
  return new MailroomError('MODEL_ERROR', `Model ${modelId} called tool ${fn.name} with arguments that are not a JSON object: ${shown}. Try a model with better tool-calling support.`, {
    cause,
    details: { model: modelId, tool: fn.name },
  });
}

function toStopReason(finish: ChatCompletion.Choice['finish_reason'], refusal: string | null): StopReason {
  if (refusal) return 'refusal';
  const map: Record<string, StopReason> = { stop: 'end_turn', tool_calls: 'tool_use', function_call: 'tool_use', length: 'max_tokens', content_filter: 'refusal' };
  return map[finish] ?? 'other';
}
