/**
 * Control-message signatures (src/protocol/signature.ts): a signed message verifies for its team and
 * recipient only; an edited, unsigned, re-addressed or other-key message does not.
 */
import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { signMessage, verifyMessage } from '../../../src/protocol/signature.js';

const key = randomBytes(32);
const request = { type: 'shutdown_request', requestId: 'shutdown-1@bob', from: 'team-lead', reason: 'done', timestamp: '2026-01-01T00:00:00.000Z' };

it('verifies what it signed, survives a JSON round trip, and refuses every alteration', () => {
  const signed = signMessage(request, key, 'demo', 'bob');
  expect(verifyMessage(JSON.parse(JSON.stringify(signed)) as Record<string, unknown>, key, 'demo', 'bob')).toBe('valid');
  expect(verifyMessage(request, key, 'demo', 'bob')).toBe('unsigned');
  expect(verifyMessage({ ...signed, reason: 'edited' }, key, 'demo', 'bob')).toBe('forged');
  expect(verifyMessage(signed, key, 'demo', 'alice')).toBe('forged');
  expect(verifyMessage(signed, key, 'other', 'bob')).toBe('forged');
  expect(verifyMessage(signed, randomBytes(32), 'demo', 'bob')).toBe('forged');
  expect(verifyMessage({ ...signed, mailroomSig: 'v1.zz.abc' }, key, 'demo', 'bob')).toBe('forged');
});
