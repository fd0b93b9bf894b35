/**
 * A fake OpenAI Chat Completions API (the format Ollama, vLLM and LM Studio also speak) for tests: a
 * real HTTP server on 127.0.0.1 answering `POST /v1/chat/completions` (non-streaming) with scripted
 * replies, recording every request body. Point the real SDK (or `createOpenAIModel`) at it with
 * `baseURL: server.baseURL` (which already ends in `/v1`).
 *
 * @example
 * const server = await startFakeOpenAIServer();
 * server.enqueue(
 *   { type: 'message', toolCalls: [{ name: 'TaskList', arguments: {} }] },  // finish_reason tool_calls
 *   { type: 'message', text: 'All done.' },                                   // finish_reason stop
 * );
 * const model = createOpenAIModel({ name: 'gpt-test', apiKey: 'k', baseURL: server.baseURL });
 * // ... run; then inspect server.requests[1].body.messages
 * await server.close();
 */
import { startFakeLlmServer, type FakeControlReply, type FakeLlmServer, type WireAnswer } from './fake-llm-server.js';

/**
 * A function call in a scripted reply. `arguments` is JSON-encoded when an object, sent verbatim when
 * a string (to script malformed arguments). `id` defaults to `call_fake_<request>_<n>`.
 */
export interface FakeToolCall {
  id?: string;
  name: string;
  arguments: Record<string, unknown> | string;
}

/**
 * A scripted Chat Completions reply. `finishReason` defaults to `tool_calls` when there are tool
 * calls, else `stop`; `text` absent sends `content: null`.
 */
export type OpenAIReply =
  | { type: 'message'; text?: string; toolCalls?: FakeToolCall[]; finishReason?: string; usage?: { input: number; output: number } }
  | FakeControlReply;

/** The fake server; `requests[i].body` is the JSON `chat.completions.create` body (model, messages, tools, max_tokens…). */
export type FakeOpenAIServer = FakeLlmServer<OpenAIReply, Record<string, unknown>>;

/** Starts a fake OpenAI-compatible server; `baseURL` ends in `/v1`. Close it in `afterEach`. */
export function startFakeOpenAIServer(): Promise<FakeOpenAIServer> {
  return startFakeLlmServer<OpenAIReply, Record<string, unknown>>({ route: '/v1/chat/completions', basePath: '/v1', render, failure });
}

function render(reply: OpenAIReply, index: number): WireAnswer {
  if (reply.type === 'hang') return 'hang';
  if (reply.type === 'raw') return reply;
  if (reply.type === 'error') return errorAnswer(reply.status, reply.message, reply.errorType, reply.retry === true);
  const toolCalls = (reply.toolCalls ?? []).map((c, n) => ({
    id: c.id ?? `call_fake_${index}_${n}`,
    type: 'function',
    function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) },
  }));
  const message = { role: 'assistant', content: reply.text ?? null, refusal: null, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) };
  const finish = reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop');
  const input = reply.usage?.input ?? 10;
  const output = reply.usage?.output ?? 5;
  const body = {
    id: `chatcmpl-fake-${index}`,
    object: 'chat.completion',
    created: 1_700_000_000 + index,
    model: 'fake-model',
    choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
    usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output },
  };
  return { status: 200, body, headers: { 'x-request-id': `req_fake_${index}` } };
}

const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'invalid_request_error',
  404: 'invalid_request_error',
  429: 'rate_limit_exceeded',
};

function errorAnswer(status: number, message: string, errorType: string | undefined, retry: boolean): WireAnswer {
  const type = errorType ?? ERROR_TYPES[status] ?? 'server_error';
  const headers: Record<string, string> = retry ? { 'x-should-retry': 'true', 'retry-after-ms': '1' } : { 'x-should-retry': 'false' };
  return { status, body: { error: { message, type, param: null, code: null } }, headers: { ...headers, 'x-request-id': 'req_fake_error' } };
}

function failure(status: number, message: string): WireAnswer {
  return errorAnswer(status, message, undefined, false);
}
