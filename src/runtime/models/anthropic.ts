/**
 * The `anthropic` model: Claude through the official @anthropic-ai/sdk Messages API with tool use
 * (non-streaming `messages.create`). Loaded lazily by the model factory, so the SDK is only imported
 * by teammates that use it.
 *
 * Configuration: API key from `opts.apiKey`, else `ANTHROPIC_API_KEY`, else `ANTHROPIC_AUTH_TOKEN`
 * (sent as a bearer token, for gateways); base URL from `opts.baseURL`, else `ANTHROPIC_BASE_URL`,
 * else https://api.anthropic.com. The SDK retries 408/409/429/5xx and connection errors twice.
 */
import Anthropic, { APIError } from '@anthropic-ai/sdk';
import { traceMark } from '../../trace-marks.js';
import { modelCallAborted } from './abort.js';
import { toAnthropicParams, fromAnthropicMessage } from './anthropic-wire.js';
import { envVar } from './env.js';
import { callFailedError, missingKeyError, type CallFailure, type ProviderSetup } from './model-errors.js';
import type { Model, ModelRequest, ModelResponse } from './types.js';

/** Options of {@link createAnthropicModel}. */
export interface AnthropicModelOptions {
  /** Model name, e.g. `claude-sonnet-4-5`. */
  name: string;
  /** API key (default: `ANTHROPIC_API_KEY`, then `ANTHROPIC_AUTH_TOKEN`). */
  apiKey?: string;
  /** API base URL without `/v1` (default: `ANTHROPIC_BASE_URL`, then https://api.anthropic.com). */
  baseURL?: string;
  /** Output token cap when a request sets none (default 4096; above ~21 000 the SDK requires streaming and refuses). */
  maxTokens?: number;
}

/** Output token cap used when neither the request nor the options set one. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

/**
 * Creates the `anthropic:<name>` model.
 * `call` rejects with MailroomError MODEL_ERROR when the API fails (message names the HTTP status and
 * what to check; `cause` is the SDK error; `details.status`), and with a DOMException `AbortError`
 * when `request.signal` aborts (see ./abort.ts).
 * @throws MODEL_ERROR when no API key is configured.
 */
export function createAnthropicModel(opts: AnthropicModelOptions): Model {
  const baseURL = opts.baseURL ?? envVar('ANTHROPIC_BASE_URL');
  const setup: ProviderSetup = {
    modelId: `anthropic:${opts.name}`,
    keyVar: 'ANTHROPIC_API_KEY',
    baseURLVar: 'ANTHROPIC_BASE_URL',
    baseURL: baseURL ?? 'https://api.anthropic.com',
  };
  const client = new Anthropic({ ...credentials(setup, opts.apiKey), baseURL: setup.baseURL });
  const defaultMax = opts.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS;
  return {
    id: setup.modelId,
    call: (request) => callAnthropic(client, setup, opts.name, request, request.maxTokens ?? defaultMax),
  };
}

async function callAnthropic(
  client: Anthropic,
  setup: ProviderSetup,
  name: string,
  request: ModelRequest,
  maxTokens: number,
): Promise<ModelResponse> {
  const params = toAnthropicParams(name, request, maxTokens);
  try {
    traceMark('sdk-create');
    const message = await client.messages.create(params, { signal: request.signal });
    return fromAnthropicMessage(message);
  } catch (err) {
    if (request.signal.aborted) throw modelCallAborted(setup.modelId, request.signal);
    throw callFailedError(setup, describeFailure(err));
  }
}

function credentials(setup: ProviderSetup, apiKey: string | undefined): { apiKey: string } | { authToken: string } {
  const key = apiKey ?? envVar('ANTHROPIC_API_KEY');
  if (key !== undefined) return { apiKey: key };
  const token = envVar('ANTHROPIC_AUTH_TOKEN');
  if (token !== undefined) return { authToken: token };
  throw missingKeyError(setup, '; create a key at https://console.anthropic.com/settings/keys (a gateway token can go in ANTHROPIC_AUTH_TOKEN instead)');
}

function describeFailure(err: unknown): CallFailure {
  if (err instanceof APIError) {
    const detail = err.apiMessage ?? err.message;
    return { status: err.status, detail, requestId: err.requestID ?? undefined, cause: err };
  }
  return { detail: err instanceof Error ? err.message : String(err), cause: err };
}
