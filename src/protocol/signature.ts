/**
 * Signatures of lead-only control messages in a signed team (docs/approvals.md "Signed teams"):
 * an extra field {@link SIGNATURE_FIELD} in the structured message, `v1.<keyId>.<base64url
 * HMAC-SHA256>` over `mailroom-sig-v1 \n team \n recipient \n <the message JSON without the field>`.
 * Claude Code ignores the field. Binding the team and recipient stops a signed message from being
 * replayed into another inbox.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** The field that carries the signature. */
export const SIGNATURE_FIELD = 'mailroomSig';

/** The lead-only control messages that are signed in a signed team. */
export const SIGNED_TYPES: readonly string[] = ['shutdown_request', 'task_assignment', 'permission_response', 'plan_approval_response', 'sandbox_permission_response'];

/** The id of a key: the first 16 hex digits of its SHA-256. */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

function mac(key: Buffer, team: string, to: string, body: Record<string, unknown>): Buffer {
  const { [SIGNATURE_FIELD]: _omit, ...rest } = body;
  return createHmac('sha256', key).update(`mailroom-sig-v1\n${team}\n${to}\n${JSON.stringify(rest)}`).digest();
}

/** `message` with its signature added (last). */
export function signMessage<M extends Record<string, unknown>>(message: M, key: Buffer, team: string, to: string): M & { [SIGNATURE_FIELD]: string } {
  return { ...message, [SIGNATURE_FIELD]: `v1.${keyIdOf(key)}.${mac(key, team, to, message).toString('base64url')}` };
}

/** What a signature check found. */
export type SignatureCheck = 'valid' | 'unsigned' | 'forged';

/** Checks `message` (as parsed from an entry's text) sent to `to` in `team` against `key`. */
export function verifyMessage(message: Record<string, unknown>, key: Buffer, team: string, to: string): SignatureCheck {
  const sig = message[SIGNATURE_FIELD];
  if (typeof sig !== 'string') return 'unsigned';
  const [v, keyId, value] = sig.split('.');
  if (v !== 'v1' || keyId !== keyIdOf(key) || value === undefined) return 'forged';
  const given = Buffer.from(value, 'base64url');
  const want = mac(key, team, to, message);
  return given.length === want.length && timingSafeEqual(given, want) ? 'valid' : 'forged';
}
