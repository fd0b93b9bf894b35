/**
 * MODEL_ERROR messages shared by the HTTP adapters (anthropic, openai): a missing API key, and a
 * failed API call explained by its HTTP status with a hint on what to do. The SDK error stays
 * attached as `cause`; `details` carries `model`, `status` and `requestId` for `--json` output.
 */
import { MailroomError } from '../../errors.js';

/** How a provider is configured: what to name in hints. */
export interface ProviderSetup {
  /** `kind:name`, e.g. `anthropic:claude-sonnet-4-5`. */
  modelId: string;
  /** Environment variable holding the API key, e.g. `ANTHROPIC_API_KEY`. */
  keyVar: string;
  /** Environment variable holding the base URL, e.g. `ANTHROPIC_BASE_URL`. */
  baseURLVar: string;
  /** The base URL in use (the SDK default when none was configured). */
  baseURL: string;
}

/** A failed call as the adapter saw it: HTTP status (absent for connection failures) and the provider's message. */
export interface CallFailure {
  status?: number;
  detail: string;
  requestId?: string;
  cause: unknown;
}

/** MODEL_ERROR for a model created without an API key. */
export function missingKeyError(setup: ProviderSetup, alternatives: string): MailroomError {
  return new MailroomError(
    'MODEL_ERROR',
    `No API key for ${setup.modelId}: set ${setup.keyVar} (export ${setup.keyVar}=…)${alternatives}.`,
    { details: { model: setup.modelId, keyVar: setup.keyVar } },
  );
}

/** MODEL_ERROR for a failed API call, with a hint chosen by HTTP status. */
export function callFailedError(setup: ProviderSetup, failure: CallFailure): MailroomError {
  const what = failure.status === undefined ? failure.detail : `HTTP ${failure.status}: ${failure.detail}`;
  return new MailroomError('MODEL_ERROR', `Model ${setup.modelId} failed (${what}). ${hintFor(setup, failure.status)}`, {
    cause: failure.cause,
    details: { model: setup.modelId, status: failure.status ?? null, requestId: failure.requestId ?? null },
  });
}

function hintFor(setup: ProviderSetup, status: number | undefined): string {
  if (status === undefined) return `Check the network and ${setup.baseURLVar} (now ${setup.baseURL}).`;
  if (status === 401) return `The API key was rejected: check ${setup.keyVar}.`;
  if (status === 403) return `The API key may not use this model or endpoint: check ${setup.keyVar} and its permissions.`;
  if (status === 404) return `Check the model name and ${setup.baseURLVar} (now ${setup.baseURL}).`;
  if (status === 429) return 'Rate limited: wait and retry, or lower the number of teammates on this key.';
  if (status >= 500) return 'The provider failed or is overloaded: retry later.';
  return 'The provider refused the request: check the model name and its limits (e.g. max tokens).';
}
