/**
 * The `openai` model: the official openai SDK's Chat Completions API with tools (function calling),
 * against OpenAI or any OpenAI-compatible server (Ollama, vLLM, LM Studio) via a base URL.
 * Non-streaming. Loaded lazily by the model factory, so the SDK is only imported when used.
 *
 * Configuration: base URL from `opts.baseURL`, else `OPENAI_BASE_URL`, else https://api.openai.com/v1
 * (compatible servers need the `/v1` suffix, e.g. http://localhost:11434/v1 for Ollama). API key from
 * `opts.apiKey`, else `OPENAI_API_KEY`; with a base URL set and no key, a placeholder key is sent
 * (local servers ignore it). The SDK retries 408/409/429/5xx and connection errors twice.
 */
import OpenAI, { APIError } from 'openai';
import { modelCallAborted } from './abort.js';
import { envVar } from './env.js';
import { callFailedError, missingKeyError, type CallFailure, type ProviderSetup } from './model-errors.js';
import { fromChatCompletion, maxTokensFieldFor, toChatParams, type MaxTokensField } from './openai-wire.js';
import type { Model, ModelRequest, ModelResponse } from './types.js';

/** Options of {@link createOpenAIModel}. */
export interface OpenAIModelOptions {
  /** Model name, e.g. `gpt-4.1` or `qwen2.5:7b` (Ollama). */
  name: string;
  /** API key (default: `OPENAI_API_KEY`; optional when a base URL is set). */
  apiKey?: string;
  /** API base URL including `/v1` (default: `OPENAI_BASE_URL`, then https://api.openai.com/v1). */
  baseURL?: string;
  /** Output token cap when a request sets none (default: none sent, the server decides). */
  maxTokens?: number;
}

/** The key sent to a keyless OpenAI-compatible server (Ollama, vLLM, LM Studio ignore it). */
export const OPENAI_PLACEHOLDER_KEY = 'mailroom-no-key';

const OPENAI_URL = 'https://api.openai.com/v1';

/**
 * Creates the `openai:<name>` model.
 * `call` rejects with MailroomError MODEL_ERROR when the API fails (message names the HTTP status and
 * what to check; `cause` is the SDK error; `details.status`) or a tool call's arguments are not a JSON
 * object, and with a DOMException `AbortError` when `request.signal` aborts (see ./abort.ts).
 * The token cap is sent as `max_completion_tokens` to api.openai.com and as `max_tokens` elsewhere.
 * @throws MODEL_ERROR when no API key is configured and no base URL is set.
 */
export function createOpenAIModel(opts: OpenAIModelOptions): Model {
  const baseURL = opts.baseURL ?? envVar('OPENAI_BASE_URL');
  const setup: ProviderSetup = { modelId: `openai:${opts.name}`, keyVar: 'OPENAI_API_KEY', baseURLVar: 'OPENAI_BASE_URL', baseURL: baseURL ?? OPENAI_URL };
  const apiKey = opts.apiKey ?? envVar('OPENAI_API_KEY') ?? (baseURL === undefined ? undefined : OPENAI_PLACEHOLDER_KEY);
  if (apiKey === undefined) {
    throw missingKeyError(setup, ', or set OPENAI_BASE_URL to a local OpenAI-compatible server (e.g. http://localhost:11434/v1 for Ollama)');
  }
  const client = new OpenAI({ apiKey, baseURL: setup.baseURL });
  const field = maxTokensFieldFor(setup.baseURL);
  return {
    id: setup.modelId,
    call: (request) => callOpenAI(client, setup, opts.name, request, { field, max: request.maxTokens ?? opts.maxTokens }),
  };
}

async function callOpenAI(
  client: OpenAI,
  setup: ProviderSetup,
  name: string,
  request: ModelRequest,
  cap: { field: MaxTokensField; max: number | undefined },
): Promise<ModelResponse> {
  const params = toChatParams({ model: name, ...request, maxTokens: cap.max, maxTokensField: cap.field });
  let completion: OpenAI.ChatCompletion;
  try {
    completion = await client.chat.completions.create(params, { signal: request.signal });
  } catch (err) {
    if (request.signal.aborted) throw modelCallAborted(setup.modelId, request.signal);
    throw callFailedError(setup, describeFailure(err));
  }
  return fromChatCompletion(completion, setup.modelId);
}

function describeFailure(err: unknown): CallFailure {
  if (err instanceof APIError) {
    const body: unknown = err.error;
    const message = typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : undefined;
    return { status: err.status, detail: typeof message === 'string' ? message : err.message, requestId: err.requestID ?? undefined, cause: err };
  }
  return { detail: err instanceof Error ? err.message : String(err), cause: err };
}
