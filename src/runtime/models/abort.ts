/**
 * Aborted model calls. When the request's AbortSignal fires, every adapter rejects with a
 * `DOMException` named `AbortError` (the web-platform convention `fetch` follows) whose `cause` is
 * `signal.reason` — never with a MailroomError, because a teammate being shut down is not a model
 * failure. Callers test for it with {@link isAbortError} (or `signal.aborted`).
 */

/**
 * The error an adapter throws when `signal` aborted its call.
 * @param modelId - `kind:name` of the model, for the message.
 */
export function modelCallAborted(modelId: string, signal: AbortSignal): DOMException {
  return new DOMException(`Model call to ${modelId} was aborted.`, { name: 'AbortError', cause: signal.reason });
}

/** True when `err` is an abort (an `Error`/`DOMException` named `AbortError`), e.g. from {@link modelCallAborted}. */
export function isAbortError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'AbortError';
}
