import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isMailroomError, type MailroomError } from '../../../../src/errors.js';
import { isAbortError } from '../../../../src/runtime/models/abort.js';
import { OPENAI_PLACEHOLDER_KEY, createOpenAIModel } from '../../../../src/runtime/models/openai.js';
import { maxTokensFieldFor } from '../../../../src/runtime/models/openai-wire.js';
import { startFakeOpenAIServer, type FakeOpenAIServer } from '../../../helpers/fake-openai-server.js';
import { LATE, SYSTEM, WRAPPED, request } from './conversation.js';

let server: FakeOpenAIServer;
beforeEach(async () => {
  vi.stubEnv('OPENAI_API_KEY', undefined);
  vi.stubEnv('OPENAI_BASE_URL', undefined);
  server = await startFakeOpenAIServer();
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await server.close();
});

const model = (maxTokens?: number) => createOpenAIModel({ name: 'gpt-test', apiKey: 'sk-test', baseURL: server.baseURL, maxTokens });

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(() => expect.fail('expected the call to fail'), (err: unknown) => err);
}

describe('openai adapter: request body', () => {
  it('sends the system message, wrapped text verbatim, function tools, tool_calls and tool messages by id', async () => {
    server.enqueue({ type: 'message', text: 'ok' });
    await model().call(request());
    const body = server.requests[0]!.body;
    expect(server.requests[0]!.path).toBe('/v1/chat/completions');
    expect(body.model).toBe('gpt-test');
    expect(body).not.toHaveProperty('max_tokens');
    expect(body.tools).toEqual([
      { type: 'function', function: { name: 'TaskUpdate', description: 'Update a task.', parameters: { type: 'object', properties: { taskId: { type: 'string' }, status: { enum: ['in_progress', 'completed'] } }, required: ['taskId'] } } },
      { type: 'function', function: { name: 'TaskList', description: 'List tasks.', parameters: { type: 'object', properties: {} } } },
    ]);
    expect(body.messages).toEqual([
      { role: 'system', content: SYSTEM },
      { role: 'user', content: WRAPPED },
      {
        role: 'assistant',
        content: 'Claiming #1.',
        tool_calls: [
          { id: 'call_A', type: 'function', function: { name: 'TaskUpdate', arguments: '{"taskId":"1","status":"in_progress"}' } },
          { id: 'call_B', type: 'function', function: { name: 'TaskList', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_A', content: '{"id":"1","status":"in_progress"}' },
      { role: 'tool', tool_call_id: 'call_B', content: 'Error: TASK_NOT_FOUND' },
      { role: 'user', content: LATE },
    ]);
  });

  it('sends max_tokens to compatible servers (request over option); max_completion_tokens only to api.openai.com', async () => {
    server.enqueue({ type: 'message', text: 'a' }, { type: 'message', text: 'b' });
    await model(1000).call(request());
    await model(1000).call({ ...request(), maxTokens: 77 });
    expect(server.requests.map((r) => r.body.max_tokens)).toEqual([1000, 77]);
    expect(maxTokensFieldFor('https://api.openai.com/v1')).toBe('max_completion_tokens');
    expect(maxTokensFieldFor('http://localhost:11434/v1')).toBe('max_tokens');
  });
});

describe('openai adapter: responses', () => {
  it('maps content, tool_calls, finish_reason and usage; the call id comes back as tool_call_id', async () => {
    server.enqueue(
      { type: 'message', text: 'Looking.', toolCalls: [{ name: 'TaskList', arguments: { all: true } }, { name: 'TaskGet', arguments: '' }], usage: { input: 120, output: 30 } },
      { type: 'message', text: 'Done.' },
    );
    const m = model();
    const first = await m.call(request());
    expect(first).toEqual({
      content: [
        { type: 'text', text: 'Looking.' },
        { type: 'tool_use', id: 'call_fake_0_0', name: 'TaskList', input: { all: true } },
        { type: 'tool_use', id: 'call_fake_0_1', name: 'TaskGet', input: {} },
      ],
      stopReason: 'tool_use',
      usage: { inputTokens: 120, outputTokens: 30 },
    });
    const results = first.content.flatMap((b) => (b.type === 'tool_use' ? [{ type: 'tool_result' as const, toolUseId: b.id, content: `ran ${b.name}` }] : []));
    const second = await m.call(request(undefined, [...request().messages, { role: 'assistant', content: first.content }, { role: 'user', content: results }]));
    expect(second).toMatchObject({ content: [{ type: 'text', text: 'Done.' }], stopReason: 'end_turn' });
    expect((server.requests[1]!.body.messages as unknown[]).slice(-2)).toEqual([
      { role: 'tool', tool_call_id: 'call_fake_0_0', content: 'ran TaskList' },
      { role: 'tool', tool_call_id: 'call_fake_0_1', content: 'ran TaskGet' },
    ]);
  });

  it('maps length to max_tokens, content_filter to refusal, and tool calls under finish_reason "stop" to tool_use', async () => {
    server.enqueue(
      { type: 'message', text: 'cut', finishReason: 'length' },
      { type: 'message', text: 'no', finishReason: 'content_filter' },
      { type: 'message', toolCalls: [{ name: 'TaskList', arguments: {} }], finishReason: 'stop' },
    );
    const reasons = [];
    for (let i = 0; i < 3; i++) reasons.push((await model().call(request())).stopReason);
    expect(reasons).toEqual(['max_tokens', 'refusal', 'tool_use']);
  });

  it('reports tool arguments that are not a JSON object as MODEL_ERROR naming the tool', async () => {
    server.enqueue({ type: 'message', toolCalls: [{ name: 'TaskUpdate', arguments: '{"taskId": 1' }] });
    const err = (await failure(model().call(request()))) as MailroomError;
    expect(isMailroomError(err, 'MODEL_ERROR')).toBe(true);
    expect(err.message).toContain('tool TaskUpdate');
    expect(err.cause).toBeInstanceOf(SyntaxError);
  });
});

describe('openai adapter: errors and abort', () => {
  it('maps HTTP 401 to MODEL_ERROR naming OPENAI_API_KEY, keeping the SDK error as cause', async () => {
    server.enqueue({ type: 'error', status: 401, message: 'Incorrect API key provided' });
    const err = (await failure(model().call(request()))) as MailroomError;
    expect(isMailroomError(err, 'MODEL_ERROR')).toBe(true);
    expect(err.message).toContain('HTTP 401: Incorrect API key provided');
    expect(err.message).toContain('OPENAI_API_KEY');
    expect(err.details).toMatchObject({ model: 'openai:gpt-test', status: 401, requestId: 'req_fake_error' });
    expect(err.cause).toBeInstanceOf(OpenAI.AuthenticationError);
  });

  it('maps HTTP 500 to MODEL_ERROR; a retryable error is retried by the SDK', async () => {
    server.enqueue({ type: 'error', status: 500, message: 'boom' });
    const err = (await failure(model().call(request()))) as MailroomError;
    expect(isMailroomError(err, 'MODEL_ERROR')).toBe(true);
    expect(err.details.status).toBe(500);
    server.enqueue({ type: 'error', status: 503, message: 'loading model', retry: true }, { type: 'message', text: 'back' });
    expect((await model().call(request())).content).toEqual([{ type: 'text', text: 'back' }]);
    expect(server.requests).toHaveLength(3);
  });

  it('rejects with an AbortError (not MODEL_ERROR) when the signal aborts mid-call or before it', async () => {
    server.enqueue({ type: 'hang' });
    const controller = new AbortController();
    const call = failure(model().call(request(controller.signal)));
    await server.waitForRequests(1);
    controller.abort();
    const err = await call;
    expect(isAbortError(err)).toBe(true);
    expect(isMailroomError(err)).toBe(false);
    expect(isAbortError(await failure(model().call(request(AbortSignal.abort()))))).toBe(true);
    expect(server.requests).toHaveLength(1);
  });
});

describe('openai adapter: configuration', () => {
  it('refuses to start with neither key nor base URL, naming OPENAI_API_KEY and OPENAI_BASE_URL', () => {
    let err: unknown;
    try {
      createOpenAIModel({ name: 'gpt-test' });
    } catch (e) {
      err = e;
    }
    expect(isMailroomError(err, 'MODEL_ERROR')).toBe(true);
    expect((err as Error).message).toMatch(/set OPENAI_API_KEY .*OPENAI_BASE_URL/);
  });

  it('uses OPENAI_BASE_URL with no key (local server), sending a placeholder key', async () => {
    vi.stubEnv('OPENAI_BASE_URL', server.baseURL);
    server.enqueue({ type: 'message', text: 'hi' });
    const m = createOpenAIModel({ name: 'qwen2.5:7b' });
    expect(m.id).toBe('openai:qwen2.5:7b');
    await m.call(request());
    expect(server.requests[0]!.body.model).toBe('qwen2.5:7b');
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${OPENAI_PLACEHOLDER_KEY}`);
  });

  it('takes the key from OPENAI_API_KEY', async () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-from-env');
    server.enqueue({ type: 'message', text: 'hi' });
    await createOpenAIModel({ name: 'gpt-test', baseURL: server.baseURL }).call(request());
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-from-env');
  });
});
