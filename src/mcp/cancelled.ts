/**
 * Cancelled requests give their hand-out back (docs/mcp.md "Delivery guarantee"). A client that
 * cancels a `read_inbox` / `wait_for_message` (`notifications/cancelled`, e.g. its own request
 * timeout) drops the reply even when the server had already sent it — the reply and the cancel
 * crossed on the wire — so the messages that reply carried never reached it. The SDK ignores a
 * cancel of a request it already answered; this hook sees every cancel first and gives back the
 * leases of that request that no later call acknowledged (./handout.ts). A cancel of a request
 * still running aborts its signal, which gives its lease back too (`HandOut.take`).
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { HandOut } from './handout.js';

/** The part of a transport this hook wraps (installed after `server.connect` set `onmessage`). */
export interface ReceivingTransport {
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;
}

/** Wraps `transport.onmessage` so that every `notifications/cancelled` reaches `handOut` before the SDK. */
export function giveBackCancelled(transport: ReceivingTransport, handOut: HandOut): void {
  const receive = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    const requestId = cancelledRequest(message);
    if (requestId !== undefined) handOut.cancelled(requestId);
    receive?.(message);
  };
}

/** The request id a `notifications/cancelled` names, if `message` is one. */
function cancelledRequest(message: JSONRPCMessage): string | number | undefined {
  if (!('method' in message) || message.method !== 'notifications/cancelled' || 'id' in message) return undefined;
  const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}
