/**
 * Request-id generators in the shapes Claude Code uses (reference §4, "Request ids"). Responders
 * must echo ids byte for byte; these are only for ids mailroom creates.
 */
import { randomBytes } from './random.js';

/** `shutdown-<epochMs>@<targetName>`, as sent by a lead's model. */
export function shutdownRequestId(target: string, nowMs: number = Date.now()): string {
  return `shutdown-${nowMs}@${target}`;
}

/** `plan_approval-<epochMs>@<name>@<team>`. */
export function planApprovalRequestId(name: string, team: string, nowMs: number = Date.now()): string {
  return `plan_approval-${nowMs}@${name}@${team}`;
}

/** `perm-<epochMs>-<7 of [0-9a-z]>`. */
export function permissionRequestId(nowMs: number = Date.now()): string {
  return `perm-${nowMs}-${randomBase36(7)}`;
}

/** `sandbox-<epochMs>-<7 of [0-9a-z]>`. */
export function sandboxRequestId(nowMs: number = Date.now()): string {
  return `sandbox-${nowMs}-${randomBase36(7)}`;
}

function randomBase36(length: number): string {
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz';
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return out;
}
