/**
 * Tool results. Success: the data as pretty JSON text plus the same object as `structuredContent`.
 * Failure: a tool result with `isError: true` (never a protocol error) whose text is
 * `<CODE>: <message>` and whose structuredContent is `{error: {code, message, details}}`.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MailroomError, fromSystemError } from '../errors.js';
import type { Logger } from './session.js';

/** A successful tool result carrying `data`. */
export function ok(data: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(data, null, 2) }], structuredContent: data };
}

/** A failed tool result for `err` (code INTERNAL for errors that are not {@link MailroomError}s). */
export function fail(thrown: unknown): CallToolResult {
  const err = fromSystemError(thrown);
  const code = err instanceof MailroomError ? err.code : 'INTERNAL';
  const message = err instanceof Error ? err.message : String(err);
  const details = err instanceof MailroomError ? err.details : {};
  return {
    content: [{ type: 'text', text: `${code}: ${message}` }],
    structuredContent: { error: { code, message, details } },
    isError: true,
  };
}

/**
 * Wraps a tool body: its data becomes {@link ok}, anything it throws becomes {@link fail}
 * (unexpected errors are also logged to stderr with their stack).
 */
export function handler<A, X>(log: Logger, name: string, body: (args: A, extra: X) => Promise<Record<string, unknown>>) {
  return async (args: A, extra: X): Promise<CallToolResult> => {
    try {
      return ok(await body(args, extra));
    } catch (err) {
      if (!(err instanceof MailroomError)) log(`${name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      return fail(err);
    }
  };
}
