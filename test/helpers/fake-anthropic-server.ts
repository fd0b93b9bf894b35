/**
 * A fake Anthropic Messages API for tests: a real HTTP server on 127.0.0.1 answering
 * `POST /v1/messages` (non-streaming) with scripted replies, recording every request body.
 * Point the real SDK (or `createAnthropicModel`) at it with `baseURL: server.baseURL`.
 *
 * @example
 * const server = await startFakeAnthropicServer();
 * server.enqueue(
 *   { type: 'message', toolUses: [{ name: 'TaskList', input: {} }] },   // stop_reason tool_use
 *   { type: 'message', text: 'All done.' },                                // stop_reason end_turn
 * );
 * const model = createAnthropicModel({ name: 'claude-test', apiKey: 'k', baseURL: server.baseURL });
 * // ... run; then inspect server.requests[1].body.messages
 * await server.close();
 */
import { startFakeLlmServer, type FakeControlReply, type FakeLlmServer, type WireAnswer } from './fake-llm-server.js';

/** A tool call in a scripted reply; `id` defaults to `toolu_fake_<request>_<n>`. */
export interface FakeToolUse {
  id?: string;
  name: string;
  input: Record<string, unknown>;
}

/** A scripted Messages API reply. `stopReason` defaults to `tool_use` when there are tool uses, else `end_turn`. */
export type AnthropicReply =
  | { type: 'message'; text?: string; toolUses?: FakeToolUse[]; stopReason?: string; usage?: { input: number; output: number } }
  | FakeControlReply;

/** The fake server; `requests[i].body` is the JSON `messages.create` body (model, system, messages, tools, max_tokens). */
export type FakeAnthropicServer = FakeLlmServer<AnthropicReply, Record<string, unknown>>;

/** Starts a fake Anthropic server; `baseURL` has no `/v1` (the SDK adds it). Close it in `afterEach`. */
export function startFakeAnthropicServer(): Promise<FakeAnthropicServer> {
  return startFakeLlmServer<AnthropicReply, Record<string, unknown>>({ route: '/v1/messages', basePath: '', render, failure });
}

function render(reply: AnthropicReply, index: number): WireAnswer {
  if (reply.type === 'hang') return 'hang';
  if (reply.type === 'raw') return reply;
  if (reply.type === 'error') return errorAnswer(reply.status, reply.message, reply.errorType, reply.retry === true);
  const toolUses = (reply.toolUses ?? []).map((t, n) => ({ type: 'tool_use', id: t.id ?? `toolu_fake_${index}_${n}`, name: t.name, input: t.input }));
  const content = [...(reply.text === undefined ? [] : [{ type: 'text', text: reply.text }]), ...toolUses];
  const body = {
    id: `msg_fake_${index}`,
    type: 'message',
    role: 'assistant',
    model: 'fake-model',
    content,
    stop_reason: reply.stopReason ?? (toolUses.length > 0 ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    usage: { input_tokens: reply.usage?.input ?? 10, output_tokens: reply.usage?.output ?? 5 },
  };
  return { status: 200, body, headers: { 'request-id': `req_fake_${index}` } };
}

const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

function errorAnswer(status: number, message: string, errorType: string | undefined, retry: boolean): WireAnswer {
  const type = errorType ?? ERROR_TYPES[status] ?? 'api_error';
  const headers: Record<string, string> = retry ? { 'x-should-retry': 'true', 'retry-after-ms': '1' } : { 'x-should-retry': 'false' };
  return { status, body: { type: 'error', error: { type, message } }, headers: { ...headers, 'request-id': 'req_fake_error' } };
}

function failure(status: number, message: string): WireAnswer {
  return errorAnswer(status, message, undefined, false);
}
