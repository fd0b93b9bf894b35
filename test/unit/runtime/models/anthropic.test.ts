import Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isMailroomError, type MailroomError } from '../../../../src/errors.js';
import { isAbortError } from '../../../../src/runtime/models/abort.js';
import { createAnthropicModel } from '../../../../src/runtime/models/anthropic.js';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../../../helpers/fake-anthropic-server.js';
import { LATE, SYSTEM, WRAPPED, request } from './conversation.js';

let server: FakeAnthropicServer;
beforeEach(async () => {
  vi.stubEnv('ANTHROPIC_API_KEY', undefined);
  vi.stubEnv('ANTHROPIC_AUTH_TOKEN', undefined);
  vi.stubEnv('ANTHROPIC_BASE_URL', undefined);
  server = await startFakeAnthropicServer();
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await server.close();
});

const model = (maxTokens?: number) => createAnthropicModel({ name: 'claude-test', apiKey: 'sk-test', baseURL: server.baseURL, maxTokens });

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(() => expect.fail('expected the call to fail'), (err: unknown) => err);
}

describe('anthropic adapter: request body', () => {
  it('sends system, model, default max_tokens, tools and the conversation with ids', async () => {
    server.enqueue({ type: 'message', text: 'ok' });
    await model().call(request());
    const body = server.requests[0]!.body;
    expect(server.requests[0]!.path).toBe('/v1/messages');
    expect(body).toMatchObject({ model: 'claude-test', system: SYSTEM, max_tokens: 4096 });
    expect(body.tools).toEqual([
      { name: 'TaskUpdate', description: 'Update a task.', input_schema: { type: 'object', properties: { taskId: { type: 'string' }, status: { enum: ['in_progress', 'completed'] } }, required: ['taskId'] } },
      { name: 'TaskList', description: 'List tasks.', input_schema: { type: 'object', properties: {} } },
    ]);
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: WRAPPED }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Claiming #1.' },
          { type: 'tool_use', id: 'call_A', name: 'TaskUpdate', input: { taskId: '1', status: 'in_progress' } },
          { type: 'tool_use', id: 'call_B', name: 'TaskList', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_A', content: '{"id":"1","status":"in_progress"}' },
          { type: 'tool_result', tool_use_id: 'call_B', content: 'TASK_NOT_FOUND', is_error: true },
          { type: 'text', text: LATE },
        ],
      },
    ]);
  });

  it('sends the request cap over the option, the option over the default', async () => {
    server.enqueue({ type: 'message', text: 'a' }, { type: 'message', text: 'b' });
    await model(1000).call(request());
    await model(1000).call({ ...request(), maxTokens: 77 });
    expect(server.requests.map((r) => r.body.max_tokens)).toEqual([1000, 77]);
  });
});

describe('anthropic adapter: responses', () => {
  it('maps text, tool_use blocks, stop_reason and usage; the tool_use id comes back in the next request', async () => {
    server.enqueue(
      { type: 'message', text: 'Looking.', toolUses: [{ name: 'TaskList', input: { all: true } }], usage: { input: 120, output: 30 } },
      { type: 'message', text: 'Done.' },
    );
    const m = model();
    const first = await m.call(request());
    expect(first).toEqual({
      content: [{ type: 'text', text: 'Looking.' }, { type: 'tool_use', id: 'toolu_fake_0_0', name: 'TaskList', input: { all: true } }],
      stopReason: 'tool_use',
      usage: { inputTokens: 120, outputTokens: 30 },
    });
    const toolUse = first.content[1]!;
    const result = { type: 'tool_result' as const, toolUseId: toolUse.type === 'tool_use' ? toolUse.id : '', content: '[]' };
    const second = await m.call({ ...request(), messages: [...request().messages, { role: 'assistant', content: first.content }, { role: 'user', content: [result] }] });
    expect(second.stopReason).toBe('end_turn');
    expect(server.requests[1]!.body.messages).toContainEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_fake_0_0', content: '[]' }] });
  });

  it.each([
    ['max_tokens', 'max_tokens'],
    ['stop_sequence', 'stop_sequence'],
    ['refusal', 'refusal'],
    ['pause_turn', 'other'],
  ])('maps stop_reason %s to %s', async (wire, mapped) => {
    server.enqueue({ type: 'message', text: 'x', stopReason: wire });
    expect((await model().call(request())).stopReason).toBe(mapped);
  });
});

describe('anthropic adapter: errors and abort', () => {
  it('maps HTTP 401 to MODEL_ERROR naming ANTHROPIC_API_KEY, keeping the SDK error as cause', async () => {
    server.enqueue({ type: 'error', status: 401, message: 'invalid x-api-key' });
    const err = (await failure(model().call(request()))) as MailroomError;
    expect(isMailroomError(err, 'MODEL_ERROR')).toBe(true);
    expect(err.message).toContain('HTTP 401: invalid x-api-key');
    expect(err.message).toContain('ANTHROPIC_API_KEY');
    expect(err.details).toMatchObject({ model: 'anthropic:claude-test', status: 401, requestId: 'req_fake_error' });
    expect(err.cause).toBeInstanceOf(Anthropic.AuthenticationError);
  });

  it('maps HTTP 500 to MODEL_ERROR; a retryable error is retried by the SDK', async () => {
    server.enqueue({ type: 'error', status: 500, message: 'boom' });
    const err = (await failure(model().call(request()))) as MailroomError;
    expect(isMailroomError(err, 'MODEL_ERROR')).toBe(true);
    expect(err.details.status).toBe(500);
    expect(err.message).toContain('retry later');
    server.enqueue({ type: 'error', status: 529, message: 'overloaded', retry: true }, { type: 'message', text: 'back' });
    expect((await model().call(request())).content).toEqual([{ type: 'text', text: 'back' }]);
    expect(server.requests).toHaveLength(3);
  });

  it('rejects with an AbortError (not MODEL_ERROR) when the signal aborts mid-call', async () => {
    server.enqueue({ type: 'hang' });
    const controller = new AbortController();
    const call = failure(model().call(request(controller.signal)));
    await server.waitForRequests(1);
    controller.abort('shutdown approved');
    const err = await call;
    expect(isAbortError(err)).toBe(true);
    expect(isMailroomError(err)).toBe(false);
    expect((err as Error).cause).toBe('shutdown approved');
  });
});

describe('anthropic adapter: configuration', () => {
  it('refuses to start without a key, saying how to set ANTHROPIC_API_KEY', () => {
    let err: unknown;
    try {
      createAnthropicModel({ name: 'claude-test', baseURL: server.baseURL });
    } catch (e) {
      err = e;
    }
    expect(isMailroomError(err, 'MODEL_ERROR')).toBe(true);
    expect((err as Error).message).toMatch(/set ANTHROPIC_API_KEY \(export ANTHROPIC_API_KEY=/);
  });

  it('takes the key and base URL from ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-from-env');
    vi.stubEnv('ANTHROPIC_BASE_URL', server.baseURL);
    server.enqueue({ type: 'message', text: 'hi' });
    const m = createAnthropicModel({ name: 'claude-env' });
    expect(m.id).toBe('anthropic:claude-env');
    await m.call(request());
    expect(server.requests[0]!.body.model).toBe('claude-env');
    expect(JSON.stringify(server.requests[0]!.headers)).toContain('sk-from-env');
  });

  it('accepts ANTHROPIC_AUTH_TOKEN as a bearer token when no key is set', async () => {
    vi.stubEnv('ANTHROPIC_AUTH_TOKEN', 'gateway-token');
    server.enqueue({ type: 'message', text: 'hi' });
    await createAnthropicModel({ name: 'claude-test', baseURL: server.baseURL }).call(request());
    expect(server.requests[0]!.headers.authorization).toBe('Bearer gateway-token');
  });
});
